"""`import_results`: reference results files become runs, re-graded by tau_env.

The main file set is built from the reference's documented layout (`reference_files`): three
domains on built-in data, passing and failing simulations, tool calls by both sides (the mock
user dismisses a notification; the telecom user fixes the phone), a simulation the protocol
forbids and one infrastructure error.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from tau_env.domain import load_domain
from tau_env.html_report import build_html_report
from tau_env.importing import ImportRefused, import_results
from tau_env.rollout import export_run, run_report
from tau_env.store import ResultStore
from tests.families import task_of
from tests.importing import reference_files as ref
from tests.importing.exported import exported_run
from tests.rollout.conftest import mock_config

BOOKING = task_of("airline", "book_one_way").id
TELECOM = task_of(
    "telecom", "service_issue", issues="unseat_sim_card", persona="Easy", customer="C2010"
).id


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """One reference results file per domain; and what each simulation recorded."""
    folder = tmp_path_factory.mktemp("reference")
    written = {}
    mock = load_domain("mock")
    gold = ref.gold_conversations("mock", ["complete_task", "complete_and_dismiss"])
    complete, dismiss = mock.task("complete_task"), mock.task("complete_and_dismiss")
    broken = [m for m in gold["complete_task"] if m["role"] != "tool"]  # results removed
    written["mock"] = ref.results_file(
        "mock",
        [complete, dismiss],
        [
            ref.simulation("complete_task", 0, gold["complete_task"],
                           reward_info=ref.graded_reward_info(complete)),
            ref.simulation("complete_task", 1,
                           ref.drop_call(gold["complete_task"], "update_task_status"),
                           reward_info=ref.graded_reward_info(complete, ("DB",))),
            ref.simulation("complete_and_dismiss", 0, gold["complete_and_dismiss"],
                           reward_info=ref.graded_reward_info(dismiss)),
            ref.simulation("complete_and_dismiss", 1, gold["complete_and_dismiss"],
                           termination="max_steps",
                           reward_info=ref.premature_reward_info("max_steps")),
            ref.simulation("complete_task", 2, broken,
                           reward_info=ref.graded_reward_info(complete)),
            ref.simulation("complete_and_dismiss", 2, None, termination="infrastructure_error",
                           reward_info=None),
        ],
        trials=3,
    )  # fmt: skip
    airline = load_domain("airline")
    booking = airline.task(BOOKING)
    trip = ref.gold_conversations("airline", [BOOKING])[BOOKING]
    written["airline"] = ref.results_file(
        "airline",
        [booking],
        [
            ref.simulation(BOOKING, 0, trip, reward_info=ref.graded_reward_info(booking)),
            ref.simulation(BOOKING, 1, ref.drop_call(trip, "book_reservation"),
                           reward_info=ref.graded_reward_info(booking, ("DB",))),
        ],
        trials=2,
    )  # fmt: skip
    telecom = load_domain("telecom").task(TELECOM)
    phone = ref.gold_conversations("telecom", [TELECOM])[TELECOM]
    written["telecom"] = ref.results_file(
        "telecom",
        [telecom],
        [
            ref.simulation(TELECOM, 0, phone, reward_info=ref.graded_reward_info(telecom)),
            ref.simulation(TELECOM, 1, phone, termination="too_many_errors",
                           reward_info=ref.premature_reward_info("too_many_errors")),
        ],
        trials=2,
    )  # fmt: skip
    paths = {}
    for domain, results in written.items():
        paths[domain] = folder / domain / "results.json"
        paths[domain].parent.mkdir()
        paths[domain].write_text(json.dumps(results, indent=2))
    return paths, written


def _recorded(results):
    return {
        (s["task_id"], s["trial"]): s["reward_info"]["reward"]
        for s in results["simulations"]
        if s["reward_info"] is not None
    }


def test_import__every_simulation_without_nl_gets_its_recorded_reward(files, tmp_path):
    paths, written = files
    with ResultStore(tmp_path / "s.sqlite") as store:
        for domain, path in paths.items():
            result = import_results(store, str(path))
            assert result.run_id == domain  # the run folder's name
            episodes = {(e.task_id, e.trial): e for e in store.episodes(result.run_id)}
            regraded = {key: e.reward for key, e in episodes.items()}
            recorded = {k: v for k, v in _recorded(written[domain]).items() if k in episodes}
            assert regraded == recorded, domain
            counts = result.agreement.counts
            assert counts["reward"] == {"same": len(episodes), "differs": 0, "not comparable": 0}
            assert all(c["differs"] == 0 for c in counts.values())
            assert result.agreement.differences == []
        passed = {e.trial: e.reward for e in store.episodes("mock") if e.task_id == "complete_task"}
        assert passed == {0: 1.0, 1: 0.0}  # both outcomes are there
        dismiss = next(e for e in store.episodes("mock") if e.task_id == "complete_and_dismiss")
        assert {c["requestor"] for m in dismiss.trajectory for c in m.get("tool_calls") or []} == {
            "assistant",
            "user",
        }


def test_import__provenance_is_the_files(files, tmp_path):
    paths, written = files
    with ResultStore(tmp_path / "s.sqlite") as store:
        result = import_results(store, str(paths["airline"]))
        config = result.config
        assert (config.agent.kind, config.agent.model, config.agent.temperature) == (
            "llm_agent",
            "gpt-4.1-2025-04-14",
            0.0,
        )
        assert (config.user.kind, config.user.model) == ("user_simulator", "gpt-4.1-2025-04-14")
        assert (config.domain, config.trials, config.base_seed, config.mode) == (
            "airline",
            2,
            300,
            "default",
        )
        assert [e.seed for e in store.episodes("airline")] == [4242, 4242]
        record = store.run("airline")
        assert (
            record.versions["task_set"] == "built-in"
            and len(record.versions["task_set_hash"]) == 16
        )
        source = store.import_of("airline")
        assert source.source == str(paths["airline"]) and len(source.sha256) == 64
        assert source.info["git_commit"] == written["airline"]["info"]["git_commit"]
        assert source.changed_tasks == []
        agent = next(store.episodes("airline")).agent
        assert agent.usage.calls > 0 and agent.usage.cost == pytest.approx(
            written["airline"]["simulations"][0]["agent_cost"]
        )


def test_import__a_forbidden_conversation_is_left_out_with_its_reason(files, tmp_path):
    paths, _ = files
    with ResultStore(tmp_path / "s.sqlite") as store:
        result = import_results(store, str(paths["mock"]))
        left = {(s.task_id, s.trial): (s.status, s.reason) for s in result.left_out}
        status, reason = left[("complete_task", 2)]
        assert status == "not_regradable"
        assert reason.startswith("message 2: tool call 'update_task_status' (id 'call_1') is not")
        assert left[("complete_and_dismiss", 2)][0] == "infrastructure_error"
        assert result.regraded == 4 and store.episode_count("mock") == 4
        report = run_report(store, "mock")
        assert report.left_out[("complete_task", 2)] == f"not re-gradable: {reason}"
        # pass^k counts each task's other trials, as the reference leaves infrastructure out
        assert report.pass_hat_k == {1: pytest.approx(0.5), 2: pytest.approx(0.0)}


def test_import__the_html_report_shows_the_imported_runs(files, tmp_path):
    paths, _ = files
    with ResultStore(tmp_path / "s.sqlite") as store:
        for path in paths.values():
            import_results(store, str(path))
        reports = [run_report(store, run.run_id) for run in store.runs()]
        page = build_html_report(store, reports)
    for run_id in ("mock", "airline", "telecom"):
        assert f"<h2>{run_id}</h2>" in page
    assert page.count("Agreement with the recorded rewards") == 3
    assert f"imported from {paths['telecom']}" in page
    assert "not re-gradable: message 2: tool call" in page
    assert "task set built-in (" in page


def test_import__export_import_export_is_identical(tmp_path):
    tasks = ("create_task", "complete_task", "reopen_task", "complete_and_dismiss")
    config = mock_config("native", agent="random", tasks=tasks)
    with ResultStore(tmp_path / "s.sqlite") as store:
        first = json.dumps(exported_run(store, config), indent=2)
        (tmp_path / "native.json").write_text(first)
        imported = import_results(store, str(tmp_path / "native.json"))
        second = json.dumps(export_run(store, imported.run_id), indent=2)
        assert imported.agreement.counts["reward"]["same"] == 8
    assert second == first


def test_import__a_task_absent_from_the_data_refuses_the_file_and_writes_nothing(files, tmp_path):
    _, written = files
    results = json.loads(json.dumps(written["airline"]))
    results["simulations"][1]["task_id"] = "no_such_task"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(results))
    with ResultStore(tmp_path / "s.sqlite") as store:
        with pytest.raises(ImportRefused, match=r"task ids absent from the data .*'no_such_task'"):
            import_results(store, str(path))
        assert store.runs() == []
    with sqlite3.connect(tmp_path / "s.sqlite") as db:
        counts = [
            db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
            for table in ("runs", "episodes", "imports", "imported_simulations", "failures")
        ]
    assert counts == [0, 0, 0, 0, 0]


def test_import__the_same_file_twice_is_refused(files, tmp_path):
    paths, _ = files
    with ResultStore(tmp_path / "s.sqlite") as store:
        import_results(store, str(paths["telecom"]))
        with pytest.raises(ImportRefused, match="already imported as run 'telecom'"):
            import_results(store, str(paths["telecom"]), run_id="again")
        assert [run.run_id for run in store.runs()] == ["telecom"]


def test_import__changed_embedded_tasks_are_named_and_graded_with_the_data(files, tmp_path):
    _, written = files
    results = json.loads(json.dumps(written["airline"]))
    results["tasks"][0]["evaluation_criteria"]["reward_basis"] = ["DB"]
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(results))
    with ResultStore(tmp_path / "s.sqlite") as store:
        result = import_results(store, str(path))
    assert result.record.changed_tasks == [BOOKING]
    assert result.agreement.counts["COMMUNICATE"]["same"] == 2  # the data's basis was used


def test_import__a_resume_judges_but_never_plays(files, tmp_path, capsys):
    from tau_env.cli.main import main

    paths, _ = files
    store = str(tmp_path / "s.sqlite")
    with ResultStore(store) as opened:
        import_results(opened, str(paths["mock"]))
    assert main(["resume", "--store", store, "--run", "mock", "--no-progress"]) == 0
    captured = capsys.readouterr()
    assert "only episodes that wait for a judge are judged" in captured.err
    assert "left out: 2 of 6 simulations have no episode" in captured.out
    with ResultStore(store) as opened:
        assert opened.episode_count("mock") == 4 and opened.failures("mock") == []


def test_import__a_banking_run_keeps_its_retrieval_variant(tmp_path):
    tasks = tuple(task.id for task in load_domain("banking_knowledge").split("test")[:3])
    config = mock_config(
        "bank", domain="banking_knowledge", retrieval="bm25", tasks=tasks, trials=1, user="gold"
    )
    with ResultStore(tmp_path / "s.sqlite") as store:
        first = exported_run(store, config)
        assert first["info"]["retrieval_config"] == "bm25"
        (tmp_path / "bank.json").write_text(json.dumps(first))
        imported = import_results(store, str(tmp_path / "bank.json"))
        assert imported.config.retrieval == "bm25" and imported.record.notes == []
        assert export_run(store, imported.run_id) == first


def test_import__a_retrieval_variant_tau_env_lacks_is_noted(tmp_path):
    bank = load_domain("banking_knowledge")
    task = bank.split("test")[0]
    gold = ref.gold_conversations("banking_knowledge", [task.id])[task.id]
    results = ref.results_file(
        "banking_knowledge",
        [task],
        [ref.simulation(task.id, 0, gold, reward_info=ref.graded_reward_info(task))],
        trials=1,
    )
    results["info"]["retrieval_config"] = "alltools"  # dense retrieval and a shell
    (tmp_path / "bank.json").write_text(json.dumps(results))
    with ResultStore(tmp_path / "s.sqlite") as store:
        imported = import_results(store, str(tmp_path / "bank.json"))
    assert imported.config.retrieval is None
    assert imported.record.notes[0].startswith("retrieval variant 'alltools' is not tau_env's")
    assert imported.agreement.counts["reward"]["same"] == 1
