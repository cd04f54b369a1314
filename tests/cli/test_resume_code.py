"""A store never causes code to run (issue 56, item 7).

Before: a store whose agent was rewritten to ``module:factory`` (fingerprint recomputed) made
``tau-env resume`` import that module and call the factory.
"""

from __future__ import annotations

import json
import sqlite3
import sys

from tau_env.cli.main import EXIT_ERROR, main
from tau_env.rollout import RunConfig
from tau_env.rollout.preflight import run_resume_command
from tau_env.rollout.provenance import run_fingerprint

CODE = "tests.cli.code_in_a_store:make"


def _rewrite_agent(store: str, run_id: str, kind: str) -> None:
    """What an attacker does to a store: another agent kind, the fingerprint made to match."""
    with sqlite3.connect(store) as db:
        (text,) = db.execute("SELECT config FROM runs WHERE run_id = ?", (run_id,)).fetchone()
        config = json.loads(text)
        config["agent"]["kind"] = kind
        fingerprint = run_fingerprint(RunConfig.model_validate(config))
        db.execute(
            "UPDATE runs SET config = ?, fingerprint = ? WHERE run_id = ?",
            (json.dumps(config), fingerprint, run_id),
        )
        db.execute("DELETE FROM episodes WHERE run_id = ? AND trial = 1", (run_id,))


def test_resume__refuses_code_that_only_the_store_names(tmp_path, capsys):
    store = str(tmp_path / "runs.sqlite")
    assert main(["run", "--domain", "mock", "--store", store, "--run", "r", "--trials", "2",
                 "--quiet"]) == 0  # fmt: skip
    _rewrite_agent(store, "r", CODE)
    sys.modules.pop("tests.cli.code_in_a_store", None)

    code = main(["resume", "--store", store, "--run", "r"])

    error = capsys.readouterr().err
    assert code == EXIT_ERROR
    assert f"its agent is code, {CODE!r}" in error and f"--agent {CODE}" in error
    assert "tests.cli.code_in_a_store" not in sys.modules  # never imported


def test_resume__plays_code_the_command_line_names_again(tmp_path, capsys):
    store = str(tmp_path / "runs.sqlite")
    assert main(["run", "--domain", "mock", "--store", store, "--run", "r", "--trials", "2",
                 "--agent", CODE, "--quiet"]) == 0  # fmt: skip
    with sqlite3.connect(store) as db:
        db.execute("DELETE FROM episodes WHERE trial = 1")

    assert main(["resume", "--store", store, "--run", "r"]) == EXIT_ERROR
    assert main(["resume", "--store", store, "--run", "r", "--agent", "oracle"]) == EXIT_ERROR
    assert main(["resume", "--store", store, "--run", "r", "--agent", CODE, "--quiet"]) == 0
    assert "pass^2=1.000" in capsys.readouterr().out


def test_printed_resume_commands__name_the_code_again():
    config = RunConfig(
        run_id="r",
        domain="mock",
        task_ids=("create_task",),
        trials=1,
        agent={"kind": CODE},
        user={"kind": "scripted"},
    )
    command = run_resume_command("runs.sqlite", config)
    assert command == f"tau-env resume --store runs.sqlite --run r --agent {CODE}"
