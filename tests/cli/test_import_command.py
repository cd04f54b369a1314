"""``tau-env import`` end to end: the agreement table, refused files, then report and export."""

from __future__ import annotations

import json

from tau_env.cli.main import main
from tau_env.store import ResultStore
from tests.importing.exported import exported_run
from tests.rollout.conftest import mock_config


def _exported(tmp_path):
    """A file in the reference's layout: a tau_env run exported (random agent, mock)."""
    config = mock_config(
        "played", agent="random", tasks=("create_task", "complete_task", "reopen_task")
    )
    with ResultStore(tmp_path / "played.sqlite") as store:
        results = exported_run(store, config)
    path = tmp_path / "exported" / "results.json"
    path.parent.mkdir()
    path.write_text(json.dumps(results))
    return path, results


def test_import__prints_the_agreement_then_report_and_export_work(tmp_path, capsys):
    path, results = _exported(tmp_path)
    store = str(tmp_path / "s.sqlite")
    assert main(["import", str(path), "--store", store]) == 0
    out = capsys.readouterr().out
    assert f"imported {path} as run exported: mock, agent random, user scripted" in out
    assert "6 simulations: 6 re-graded, 0 left out" in out
    assert "    reward              6        0               0" in out
    assert "  task set: built-in (" in out
    assert f"report: tau-env report --store {store} --run exported" in out
    assert main(["report", "--store", store, "--run", "exported"]) == 0
    report = capsys.readouterr().out
    assert f"imported from {path} (re-graded by tau_env)" in report
    assert main(["export", "--store", store, "--run", "exported"]) == 0
    assert json.loads(capsys.readouterr().out) == results


def test_import__a_refused_file_is_one_line_and_the_others_import(tmp_path, capsys):
    path, _ = _exported(tmp_path)
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2")
    store = str(tmp_path / "s.sqlite")
    assert main(["import", str(bad), str(path), "--store", store, "--json"]) == 2
    captured = capsys.readouterr()
    assert (
        captured.err
        == f"tau-env: error: {bad}: not JSON: Expecting ',' delimiter at line 1 column 6\n"
    )
    summary = json.loads(captured.out)
    assert (summary["run_id"], summary["regraded"]) == ("exported", 6)
    assert summary["agreement"]["counts"]["reward"]["same"] == 6


def test_import__run_names_one_file(tmp_path, capsys):
    path, _ = _exported(tmp_path)
    store = str(tmp_path / "s.sqlite")
    assert main(["import", str(path), str(path), "--run", "x", "--store", store]) == 2
    assert "--run names one run: give one FILE with it" in capsys.readouterr().err
    assert main(["import", str(path), "--run", "mine", "--store", store, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["run_id"] == "mine"


def test_import__a_file_that_cannot_be_read_creates_no_store(tmp_path, capsys):
    # Issue 55 item 4: `tau-env import /nonexistent.json` exited 2 and left an empty store.
    store = tmp_path / "tau_env_runs.sqlite"
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2")
    for files in ([str(tmp_path / "nonexistent.json")], [str(bad)], [str(bad), str(bad)]):
        assert main(["import", *files, "--store", str(store)]) == 2
        err = capsys.readouterr().err.splitlines()
        assert len(err) == len(files) and all(line.startswith("tau-env: error: ") for line in err)
    path, _ = _exported(tmp_path)
    missing = str(tmp_path / "no-data")
    assert main(["import", str(path), "--data-dir", missing, "--store", str(store)]) == 2
    assert capsys.readouterr().err == f"tau-env: error: --data-dir {missing}: no such folder\n"
    assert not store.exists()
