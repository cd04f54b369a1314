"""``submission.json`` for the leaderboard: valid by its rules, figures from the runs' reports."""

from __future__ import annotations

import json
import re
from datetime import date

import pytest

from tau_env.cli.main import main
from tau_env.domain import load_domain
from tau_env.errors import TauEnvError
from tau_env.grading.reward import needs_nl_judge
from tau_env.rollout import ParticipantSpec, RunConfig, create_run, run, run_report
from tau_env.rollout.submission import SubmissionDetails, build_submission
from tau_env.store import ResultStore
from tests.extras import require
from tests.rollout.submission_schema import SUBMISSION

DETAILS = SubmissionDetails(
    model_organization="Example Lab",
    submitting_organization="Example Evaluators",
    model_name="random-baseline",
    contact_email="eval@example.org",
    submission_date=date(2026, 1, 15),
)


def _run(
    store, domain, data_dir, *, trials=4, agent="random", user="scripted", tasks=3, run_id=None
):
    """A run of the first `tasks` tasks that need no judge (a submission waits for none)."""
    chosen = [t for t in load_domain(domain, data_dir).split(None) if not needs_nl_judge(t)]
    config = RunConfig(
        run_id=run_id or domain,
        domain=domain,
        data_dir=str(data_dir) if data_dir is not None else None,
        task_ids=tuple(task.id for task in chosen[:tasks]),
        trials=trials,
        agent=ParticipantSpec(kind=agent),
        user=ParticipantSpec(kind=user),
    )
    create_run(store, config)
    run(store, config)
    return config


@pytest.fixture(scope="module")
def store(tmp_path_factory, data_dir):
    with ResultStore(tmp_path_factory.mktemp("submission") / "s.sqlite") as opened:
        for domain in ("airline", "retail", "telecom", "banking_knowledge"):
            _run(opened, domain, data_dir, trials=4 if domain != "retail" else 2)
        yield opened


def test_submission__validates_against_the_leaderboard_rules(store):
    jsonschema = require("jsonschema", "test")
    runs = [run.run_id for run in store.runs()]
    submission = json.loads(json.dumps(build_submission(store, runs, DETAILS)))
    validator = jsonschema.Draft7Validator(SUBMISSION)
    validator.validate(submission)
    # The schema is not vacuous: each rule it states rejects a file that breaks it.
    broken = [
        lambda s: s.pop("model_organization"),
        lambda s: s["results"]["airline"].update(pass_1=100.5),
        lambda s: s["results"]["banking_knowledge"].pop("retrieval_config"),
        lambda s: s["results"].update(mock={"pass_1": 1.0}),
        lambda s: s["results"]["retail"].update(cost=-1.0),
        lambda s: s.update(submission_date="15/01/2026"),
    ]
    for change in broken:
        copy = json.loads(json.dumps(submission))
        change(copy)
        assert not validator.is_valid(copy)
    assert list(submission["results"]) == ["retail", "airline", "telecom", "banking_knowledge"]
    assert submission["results"]["banking_knowledge"]["retrieval_config"] == "bm25_grep"
    assert submission["contact_info"] == {"email": "eval@example.org"}
    assert submission["submission_date"] == "2026-01-15"


def test_submission__figures_are_the_reports(store):
    submission = build_submission(store, ["airline", "retail"], DETAILS)
    for domain in ("airline", "retail"):
        report = run_report(store, domain)
        figures = submission["results"][domain]
        for k in range(1, 5):
            expected = report.pass_hat_k.get(k)
            assert figures[f"pass_{k}"] == (None if expected is None else expected * 100)
        assert figures["cost"] == 0.0  # a random agent calls no model
    assert submission["results"]["retail"]["pass_3"] is None  # 2 trials: no pass^3


def test_submission__is_custom_for_runs_tau_env_played_and_says_why(store):
    submission = build_submission(store, ["telecom"], DETAILS)
    assert submission["submission_type"] == "custom"
    methodology = submission["methodology"]
    assert "telecom: played by tau_env (agent random)" in methodology["notes"]
    assert "task set tau2-data (" in methodology["notes"]
    assert methodology["user_simulator"] == "tau_env scripted user"
    assert methodology["verification"]["modified_prompts"] is True
    assert methodology["verification"]["omitted_questions"] is True  # 3 tasks of the split
    assert methodology["tau2_bench_version"].startswith("1.0.1")
    assert methodology["verification"]["details"] == "telecom: 3 tasks x 4 trials"
    typed = SubmissionDetails(**{**DETAILS.__dict__, "submission_type": "standard"})
    assert build_submission(store, ["telecom"], typed)["submission_type"] == "standard"


def test_submission__refuses_what_the_leaderboard_does_not_rank(tmp_path, data_dir):
    with ResultStore(tmp_path / "s.sqlite") as store:
        _run(store, "mock", data_dir, trials=1)
        _run(store, "airline", data_dir, trials=1, agent="oracle", run_id="oracle")
        _run(store, "airline", data_dir, trials=1, run_id="a1")
        _run(store, "airline", data_dir, trials=1, run_id="a2")
        _run(store, "retail", data_dir, trials=1, user="gold", run_id="r")
        _run(store, "retail", None, trials=1, run_id="builtin")
        cases = [
            (["mock"], "run 'mock' plays mock, which the leaderboard does not rank"),
            (["oracle"], "run 'oracle': its agent (oracle) reads the gold plan"),
            (["a1", "a2"], "runs 'a1' and 'a2' are both airline: a submission has one result"),
            (["a1", "r"], "runs 'a1' and 'r' differ in agent or user"),
            ([], "a submission needs at least one run"),
            # Issue 55 item 9: a built-in run was written with the reference's version on it.
            (
                ["builtin"],
                "run 'builtin' played tau_env's built-in tasks; a leaderboard submission "
                "reports the official task sets: run them with --data-dir DIR",
            ),
        ]
        for runs, message in cases:
            with pytest.raises(TauEnvError, match=re.escape(message)):
                build_submission(store, runs, DETAILS)
        nameless = SubmissionDetails(model_organization="o", submitting_organization="s")
        with pytest.raises(TauEnvError, match="the agent random has no model: name it"):
            build_submission(store, ["a1"], nameless)


def test_export_command__submission_needs_the_organizations(store, tmp_path, capsys):
    path = store.path
    assert main(["export", "--store", path, "--format", "submission", "--run", "airline"]) == 2
    assert (
        "--format submission needs --model-organization and --submitting-organization"
        in capsys.readouterr().err
    )
    out = tmp_path / "sub" / "submission.json"
    args = ["--model-organization", "o", "--submitting-organization", "s", "--model-name", "m"]
    assert (
        main(["export", "--store", path, "--format", "submission", "--all", *args, "-o", str(out)])
        == 0
    )
    assert "wrote a submission of 4 domains to" in capsys.readouterr().err
    assert set(json.loads(out.read_text())["results"]) == {
        "airline",
        "retail",
        "telecom",
        "banking_knowledge",
    }


def test_export_command__a_built_in_run_is_refused_and_nothing_written(tmp_path, capsys):
    store = str(tmp_path / "s.sqlite")
    assert main(["run", "--domain", "retail", "--num-tasks", "1", "--agent", "random",
                 "--store", store, "--run", "builtin", "--quiet"]) == 0  # fmt: skip
    capsys.readouterr()
    out = tmp_path / "submission.json"
    args = ["--model-organization", "o", "--submitting-organization", "s", "--model-name", "m"]
    argv = ["export", "--store", store, "--format", "submission", "--all", *args, "-o", str(out)]
    assert main(argv) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "run 'builtin' played tau_env's built-in tasks" in line
    assert not out.exists()


def test_export_command__one_domain_is_said_in_the_singular(store, tmp_path, capsys):
    out = tmp_path / "one.json"
    args = ["--model-organization", "o", "--submitting-organization", "s", "--model-name", "m"]
    argv = ["export", "--store", store.path, "--format", "submission", "--run", "telecom"]
    assert main([*argv, *args, "-o", str(out)]) == 0
    assert f"wrote a submission of 1 domain to {out}" in capsys.readouterr().err
