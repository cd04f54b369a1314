"""``tau-env generate``: sets of every domain load with --data-dir, same seed same bytes,
families / difficulty / world size honoured, bad input refused in one line with nothing written,
and the manifest's identity in a run's report."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from tau_env.cli.main import main
from tau_env.domain import clear_domain_cache, load_domain
from tau_env.generation.manifest import content_hash, folder_files
from tau_env.generation.request import ADAPTERS

SIZES = {"airline": 30, "retail": 30, "telecom": 30, "banking_knowledge": 20}


ALL = "all"


def generate(
    out: Path,
    domain: str,
    *extra: str,
    tasks: int | None = None,
    seed: int = 5,
    audit: int | str = 0,
) -> int:
    count = SIZES[domain] if tasks is None else tasks
    return main(
        ["generate", "--domain", domain, "--seed", str(seed), "--tasks", str(count),
         "--out", str(out), "--audit-sample", str(audit), *extra]
    )  # fmt: skip


def all_bytes(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


@pytest.fixture(scope="module")
def sets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One generated set per domain, in one data folder."""
    out = tmp_path_factory.mktemp("generated")
    for domain in ADAPTERS:
        assert generate(out, domain, audit=100) == 0
    return out


@pytest.mark.parametrize("domain", list(ADAPTERS))
def test_generate__a_set_of_every_domain_loads_and_replays(sets, domain):
    folder = sets / "domains" / domain
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["tasks"] == SIZES[domain] and manifest["seed"] == 5
    assert manifest["verified"] == {"gold_replay_reward_1": SIZES[domain], "of": SIZES[domain]}
    assert manifest["content_hash"] == content_hash(folder_files(folder))
    audited = manifest["audit"]
    assert audited["tasks"] == SIZES[domain] and "refuse" in audited["probes"]
    assert audited["within_limit"] == (audited["max_probe_rate"] <= 0.05)
    clear_domain_cache()
    loaded = load_domain(domain, sets)
    assert len(loaded.tasks) == SIZES[domain] == len({task.id for task in loaded.tasks})
    assert sum(manifest["families"].values()) == SIZES[domain]
    named = {name: len(ids) for name, ids in loaded.data.splits.items()}
    assert named == manifest["splits"] and named["base"] == SIZES[domain]
    assert named["train"] > 0 and named["base"] == sum(c for n, c in named.items() if n != "base")
    for task in loaded.tasks:
        assert task.id.startswith(f"{domain}/")
        features = task.description.difficulty  # type: ignore[union-attr]
        assert features is not None
        assert features["plan_length"] == len(task.gold_actions)
        assert features["level"] in ("easy", "medium", "hard")


def test_generate__validate_and_audit_accept_a_generated_set(sets, capsys):
    assert main(["validate", "--domain", "airline", "--data-dir", str(sets)]) == 0
    assert (
        f"{SIZES['airline']}/{SIZES['airline']} tasks reach reward 1.0" in capsys.readouterr().out
    )
    tasks = "telecom/train/0000,telecom/test/0000"
    audit = ["audit", "--domain", "telecom", "--data-dir", str(sets), "--tasks", tasks, "--json"]
    assert main(audit) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["official"]["rates"]["oracle"]["passed"] == 2


@pytest.mark.parametrize("domain", ["telecom", "retail"])
def test_generate__same_seed_same_bytes_other_seed_other_set(tmp_path, domain):
    # The gold replays shared among two processes change nothing in the set.
    first, second, other = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    assert generate(first, domain) == 0 and generate(second, domain, "--workers", "2") == 0
    assert generate(other, domain, seed=6) == 0
    assert all_bytes(first) == all_bytes(second)
    assert all_bytes(first) != all_bytes(other)


def test_generate__families_difficulty_and_world_size(tmp_path):
    families = ["cancel_recent", "book_one_way"]
    extra = ["--families", ",".join(families), "--world-size", "200", "--difficulty", "medium"]
    assert generate(tmp_path, "airline", *extra, tasks=12) == 0
    folder = tmp_path / "domains" / "airline"
    manifest = json.loads((folder / "manifest.json").read_text())
    assert set(manifest["families"]) <= set(families) and manifest["world_size"] == 200
    assert manifest["difficulty"] == {"medium": 12}
    tasks = json.loads((folder / "tasks.json").read_text())
    assert {task["description"]["family"] for task in tasks} <= set(families)
    assert {task["description"]["difficulty"]["level"] for task in tasks} == {"medium"}
    users = json.loads((folder / "db.json").read_text())["users"]
    assert len(users) == 200


def test_generate__family_weights_give_proportional_shares(tmp_path):
    extra = ["--families", "cancel=3,exchange=1,return"]
    assert generate(tmp_path, "retail", *extra, tasks=50) == 0
    folder = tmp_path / "domains" / "retail"
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["families"] == {"cancel": 30, "exchange": 10, "return": 10}
    weights = manifest["request"]["family_weights"]
    assert weights == {"cancel": 3.0, "exchange": 1.0, "return": 1.0}
    tasks = json.loads((folder / "tasks.json").read_text())
    assert Counter(task["description"]["family"] for task in tasks)["cancel"] == 30
    splits = json.loads((folder / "split_tasks.json").read_text())
    test = {task_id for task_id in splits["test"]}
    cancels = [task["id"] for task in tasks if task["description"]["family"] == "cancel"]
    assert 0 < sum(task_id in test for task_id in cancels) < 30  # each family keeps its splits
    plain = tmp_path / "plain"
    assert generate(plain, "retail", "--families", "cancel,exchange,return", tasks=50) == 0
    natural = json.loads((plain / "domains/retail/manifest.json").read_text())
    assert natural["request"]["family_weights"] is None
    assert natural["families"] != manifest["families"]  # a plain list: the natural shares


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--domain", "mock", "--tasks", "5"], "--domain"),
        (["--domain", "telecm", "--tasks", "5"], "did you mean 'telecom'"),
        (["--domain", "airline", "--tasks", "0"], "--tasks must be"),
        (["--domain", "airline", "--tasks", "100001"], "between 1 and 100,000"),
        (["--domain", "airline", "--tasks", "5", "--seed", "-1"], "--seed"),
        (["--domain", "airline", "--tasks", "5", "--families", "book_one_wy"], "book_one_way"),
        (["--domain", "retail", "--tasks", "5", "--difficulty", "extreme"], "difficulty level"),
        (["--domain", "telecom", "--tasks", "5", "--world-size", "50"], "--world-size"),
        (["--domain", "retail", "--tasks", "5", "--world-size", "3"], "at least"),
        (["--domain", "retail", "--tasks", "5", "--world-size", "50000"], "at most 36000"),
        (["--domain", "retail", "--tasks", "five"], "invalid int"),
        (["--domain", "retail", "--tasks", "5", "--workers", "0"], "--workers"),
        (
            ["--domain", "retail", "--tasks", "5", "--audit-sample", "0", "--require-audit"],
            "--audit-sample 1",
        ),
        (["--domain", "telecom", "--tasks", "5", "--hold-out-families", "mms_issu"], "mms_issue"),
        (
            [
                "--domain",
                "retail",
                "--tasks",
                "5",
                "--families",
                "cancel",
                "--hold-out-families",
                "cancel",
            ],
            "nothing to train on",
        ),
        (["--domain", "retail", "--tasks", "5", "--audit-sample", "-1"], "--audit-sample"),
        (["--domain", "retail", "--tasks", "5", "--families", "cancel=0"], "above 0"),
        (["--domain", "retail", "--tasks", "5", "--families", "cancel=two"], "'two'"),
        (["--domain", "retail", "--tasks", "5", "--families", "cancel=nan,return"], "above 0"),
        (["--domain", "retail", "--tasks", "5", "--families", "cancl=2"], "'cancel'"),
        (["--domain", "retail", "--tasks", "5", "--families", "cancel=2,cancel=1"], "twice"),
        (["--domain", "retail", "--tasks", "5", "--audit-sample", "some"], "'all'"),
    ],
)
def test_generate__bad_input_is_one_line_exit_2_nothing_written(
    tmp_path, capsys, arguments, message
):
    out = tmp_path / "out"
    with pytest.raises(SystemExit) if {"five", "some"} & set(arguments) else _no_raise() as _:
        code = main(["generate", *arguments, "--out", str(out)])
        assert code == 2
    error = capsys.readouterr().err
    assert message in error and len(error.strip().splitlines()) == 1
    assert not out.exists()


class _no_raise:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return False


def test_generate__an_existing_set_is_kept_unless_forced(tmp_path, capsys):
    assert generate(tmp_path, "telecom", tasks=8) == 0
    before = all_bytes(tmp_path)
    assert generate(tmp_path, "telecom", tasks=9) == 2
    assert "--force" in capsys.readouterr().err
    assert all_bytes(tmp_path) == before
    assert generate(tmp_path, "telecom", "--force", tasks=9) == 0
    manifest = json.loads((tmp_path / "domains/telecom/manifest.json").read_text())
    assert manifest["tasks"] == 9
    assert [p.name for p in tmp_path.iterdir()] == ["domains"]  # no staging folder left


def test_generate__too_many_for_the_families_says_so(tmp_path, capsys):
    arguments = ["--families", "passenger_count_refused", "--world-size", "20"]
    assert generate(tmp_path, "airline", *arguments, tasks=400) == 2
    assert "distinct tasks" in capsys.readouterr().err
    assert not (tmp_path / "domains").exists()


def test_generate__the_run_records_and_reports_the_manifest(sets, tmp_path, capsys):
    store = str(tmp_path / "runs.sqlite")
    run = ["run", "--domain", "retail", "--data-dir", str(sets), "--agent", "oracle"]
    assert main([*run, "--user", "gold", "--num-tasks", "2", "--store", store, "-q"]) == 0
    capsys.readouterr()
    assert main(["report", "--store", store, "--json"]) == 0
    (report,) = json.loads(capsys.readouterr().out)
    task_set = report["task_set"]
    assert report["data"] == "generated" and "-generated-" in report["run_id"]
    manifest = json.loads((sets / "domains/retail/manifest.json").read_text())
    assert task_set["manifest"].startswith("generated retail seed=5 tasks=30")
    assert manifest["content_hash"][:16] in task_set["manifest"]


def test_generate__python_m_entry_points_are_aliases(tmp_path, monkeypatch, capsys):
    from tau_env.domains.generator_options import generate_alias

    code = generate_alias("retail", ["--tasks", "6", "--seed", "1", "--out", str(tmp_path)])
    assert code == 0 and (tmp_path / "domains/retail/manifest.json").is_file()
    assert "wrote 6 verified tasks" in capsys.readouterr().out


def test_generate__held_out_families_go_to_test_family_only(tmp_path):
    held = ["mms_issue"]
    assert generate(tmp_path, "telecom", "--hold-out-families", ",".join(held), tasks=20) == 0
    folder = tmp_path / "domains" / "telecom"
    family = {
        t["id"]: t["description"]["family"] for t in json.loads((folder / "tasks.json").read_text())
    }
    splits = json.loads((folder / "split_tasks.json").read_text())
    assert splits["test_family"] and {family[i] for i in splits["test_family"]} == set(held)
    for split in ("train", "test", "test_ood"):
        assert not {family[i] for i in splits.get(split, [])} & set(held)
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["request"]["held_out_families"] == held


def test_generate__same_bytes_in_processes_with_other_hash_seeds(tmp_path):
    # Set iteration order changes with PYTHONHASHSEED: nothing written may depend on it.
    import os
    import subprocess
    import sys

    written = []
    for hash_seed in ("1", "2"):
        out = tmp_path / hash_seed
        command = [sys.executable, "-m", "tau_env.cli.main", "generate", "--domain", "airline"]
        options = ["--tasks", "25", "--seed", "3", "--out", str(out), "--audit-sample", "0"]
        environment = {**os.environ, "PYTHONHASHSEED": hash_seed}
        subprocess.run([*command, *options], check=True, env=environment, capture_output=True)
        written.append(all_bytes(out))
    assert written[0] == written[1]


def test_generate__require_audit_refuses_a_set_no_cut_can_bring_within_5_percent(tmp_path, capsys):
    # Transfer tasks are passed by a probe that verifies the customer and hands over; with
    # no other family there is nothing to replace them with.
    out = tmp_path / "new"
    arguments = ["--families", "transfer", "--require-audit"]
    assert generate(out, "retail", *arguments, tasks=10, audit=10) == 2
    lines = capsys.readouterr().err.strip().splitlines()  # progress lines, then the error
    errors = [line for line in lines if line.startswith("tau-env: error:")]
    assert errors == lines[-1:] and "above 5%" in errors[0] and "transfer (" in errors[0]
    assert "cannot bring it within" in errors[0]
    assert not out.exists()


def test_generate__require_audit_cuts_the_family_a_probe_passes_and_records_it(tmp_path):
    # Half transfer, half cancel: the probe passes far more than 5% of the first selection;
    # the set written has transfer cut (cancel grown from the candidates drawn), every probe
    # within 5% on every task audited, and the manifest says so.
    out = tmp_path / "new"
    arguments = ["--families", "transfer,cancel", "--require-audit"]
    assert generate(out, "retail", *arguments, tasks=20, audit=ALL) == 0
    manifest = json.loads((out / "domains" / "retail" / "manifest.json").read_text())
    audited = manifest["audit"]
    regenerated = audited["regenerated"]
    assert regenerated["audits"][0]["rate"] > 0.05 and regenerated["rounds"] >= 1
    cut = regenerated["cut"]["transfer"]
    assert cut["to"] < cut["from"] and cut["to"] == manifest["families"]["transfer"]
    grown = regenerated["grown"]["cancel"]
    assert grown["to"] == manifest["families"]["cancel"] == 20 - cut["to"]
    assert audited["per_family"] == "all" and audited["tasks"] == 20
    assert audited["within_limit"] and max(audited["probes"].values()) <= 0.05
    passed = sum(1 for probes in audited["passed_by_probes"].values() if probes)
    assert passed <= 1  # 5% of 20, every task audited


def test_generate__the_audit_sample_covers_every_family(tmp_path):
    out = tmp_path / "new"
    assert generate(out, "airline", tasks=60, audit=1) == 0
    manifest = json.loads((out / "domains" / "airline" / "manifest.json").read_text())
    audited = manifest["audit"]
    assert set(audited["families"]) == set(manifest["families"])
    assert all(entry["audited"] == 1 for entry in audited["families"].values())
    assert audited["tasks"] == len(manifest["families"]) and audited["per_family"] == 1
    for family, entry in audited["families"].items():
        assert entry["tasks"] == manifest["families"][family]
        assert set(entry["probes"]) == set(audited["probes"])
