"""tau-env runs: list a store's runs; tau-env runs delete RUN: remove one (issue 42).

Before, no command deleted a run, and an empty run (stored by a failed start) blocked
tau-env report --all.
"""

import hashlib
import json
import sqlite3

import pytest

from tau_env.cli.main import main
from tau_env.rollout import create_run
from tau_env.store import ResultStore
from tests.rollout.conftest import mock_config
from tests.store.records import failure_record


@pytest.fixture
def store(tmp_path, capsys):
    """Runs 'full' (complete), 'half' (one episode missing, one failure) and 'empty'."""
    path = tmp_path / "runs.sqlite"
    where = ["--store", str(path), "--quiet"]
    for run_id in ("full", "half"):
        argv = ["run", "--domain", "mock", "--tasks", "create_task,complete_task"]
        assert main([*argv, "--run", run_id, *where]) == 0
    db = sqlite3.connect(path)
    with db:
        db.execute("DELETE FROM episodes WHERE run_id = 'half' AND task_id = 'create_task'")
    db.close()
    with ResultStore(path) as opened:
        opened.add_failure(
            failure_record("create_task", 0, "crash", "ZeroDivisionError: x", run_id="half")
        )
        # as an older tau_env left a failed start: a run with no episode
        create_run(opened, mock_config("empty", agent="llm"), check=False)
    capsys.readouterr()
    return path


def test_runs__lists_every_run_with_its_state(store, capsys):
    assert main(["runs", "--store", str(store)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == [
        "run", "created", "domain", "agent", "user", "mode", "episodes", "state"
    ]  # fmt: skip
    rows = {line.split()[0]: line.split() for line in lines[1:]}
    assert rows["full"][-2:] == ["2/2", "complete"]
    assert rows["half"][-2:] == ["1/2", "incomplete"]
    assert rows["empty"][-2:] == ["0/8", "empty"]
    assert main(["runs", "--store", str(store), "--json"]) == 0
    listed = {row["run_id"]: row for row in json.loads(capsys.readouterr().out)}
    assert listed["half"]["failed_attempts"] == 1 and listed["empty"]["agent"] == "llm"


def test_runs__listing_changes_nothing(store):
    before = hashlib.sha256(store.read_bytes()).hexdigest()
    assert main(["runs", "--store", str(store)]) == 0
    assert hashlib.sha256(store.read_bytes()).hexdigest() == before


def test_report_all__reports_complete_runs_and_names_the_others(store, capsys):
    assert main(["report", "--all", "--store", str(store)]) == 1
    captured = capsys.readouterr()
    assert "run full:" in captured.out and "run half:" not in captured.out
    assert "left out: run 'half' is incomplete" in captured.err
    assert "left out: run 'empty' is incomplete: 8 of 8 episodes" in captured.err
    assert f"tau-env runs --store {store} delete empty" in captured.err


def test_runs_delete__removes_the_run_its_episodes_and_failures_only(store, capsys):
    assert main(["runs", "delete", "empty", "half", "--store", str(store)]) == 0
    out = capsys.readouterr().out
    assert "deleted run empty: 0 episodes, 0 failed attempts" in out
    assert "deleted run half: 1 episodes, 1 failed attempts" in out
    db = sqlite3.connect(store)
    assert db.execute("SELECT run_id FROM runs").fetchall() == [("full",)]
    assert db.execute("SELECT DISTINCT run_id FROM episodes").fetchall() == [("full",)]
    assert db.execute("SELECT COUNT(*) FROM failures").fetchone() == (0,)
    assert main(["report", "--all", "--store", str(store)]) == 0  # no longer blocked


def test_runs_delete__an_unknown_run_removes_nothing(store, capsys):
    assert main(["runs", "--store", str(store), "delete", "half", "nope"]) == 2
    err = capsys.readouterr().err
    assert "holds no run 'nope'; runs in it: full, half, empty" in err
    db = sqlite3.connect(store)
    assert db.execute("SELECT COUNT(*) FROM runs").fetchone() == (3,)
    assert db.execute("SELECT COUNT(*) FROM episodes WHERE run_id = 'half'").fetchone() == (1,)


def test_runs__a_missing_store_is_one_line(tmp_path, capsys):
    assert main(["runs", "--store", str(tmp_path / "none.sqlite")]) == 2
    assert "no result store at" in capsys.readouterr().err
