"""Commands that only read a store (``report``, ``export``) never change a file.

Issue 42: ``tau-env report --store foreign.db --all`` added four tables to an unrelated SQLite
file and turned it to WAL; on a read-only file system ``report`` and ``export`` failed with
"unable to open database file".
"""

import hashlib
import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys

import pytest

from tau_env.cli.main import main


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def foreign(tmp_path):
    """Somebody's own SQLite file (rollback journal, one table, one row)."""
    path = tmp_path / "foreign.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    db.execute("INSERT INTO notes (text) VALUES ('keep me')")
    db.commit()
    db.close()
    return path


@pytest.mark.parametrize(
    "argv",
    [
        ["report", "--all"],
        ["report"],
        ["report", "--json", "--all"],
        ["export"],
        ["resume"],
        ["run", "--domain", "mock", "--tasks", "create_task"],
    ],
    ids=["report-all", "report", "report-json", "export", "resume", "run"],
)
def test_foreign_sqlite_file__is_refused_and_left_byte_for_byte_unchanged(foreign, argv, capsys):
    before = _digest(foreign)
    assert main([*argv, "--store", str(foreign)]) == 2
    err = capsys.readouterr().err
    assert "not a tau_env result store (it holds notes" in err
    assert "it was left unchanged" in err
    assert _digest(foreign) == before
    assert sorted(p.name for p in foreign.parent.iterdir()) == ["foreign.db"]  # no -wal, -shm
    db = sqlite3.connect(f"{foreign.as_uri()}?mode=ro", uri=True)
    assert db.execute("PRAGMA journal_mode").fetchone() == ("delete",)


def test_empty_file__is_not_a_store_for_reading(tmp_path, capsys):
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    assert main(["report", "--store", str(empty)]) == 2
    assert "not a tau_env result store (it holds no tables" in capsys.readouterr().err
    assert empty.read_bytes() == b""


@pytest.fixture
def stored_run(tmp_path, capsys):
    """A store holding two complete mock runs (one read strictly, whose report carries the
    strict figures), written and closed; their JSON report."""
    store = tmp_path / "made" / "runs.sqlite"
    argv = ["run", "--domain", "mock", "--trials", "2", "--run", "m", "--store", str(store)]
    assert main([*argv, "--quiet"]) == 0
    strict = ["run", "--domain", "mock", "--trials", "2", "--run", "s", "--store", str(store)]
    assert main([*strict, "--grading", "strict", "--quiet"]) == 0
    capsys.readouterr()
    assert main(["report", "--store", str(store), "--json", "--all"]) == 0
    report = json.loads(capsys.readouterr().out)
    return store, report


def _read_only_copy(stored_run, tmp_path):
    """A copy in a folder where SQLite can create nothing: its -wal and -shm names are taken
    by folders (so even root, whom permissions do not stop, cannot create them), and file and
    folder are read-only."""
    store, _ = stored_run
    folder = tmp_path / "readonly"
    folder.mkdir()
    copy = folder / "runs.sqlite"
    shutil.copyfile(store, copy)
    for suffix in ("-wal", "-shm", "-journal"):
        (folder / f"runs.sqlite{suffix}").mkdir()
    copy.chmod(stat.S_IRUSR | stat.S_IRGRP)
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    return copy


def test_read_only_copy__report_and_export_work_and_change_nothing(stored_run, tmp_path, capsys):
    _, report = stored_run
    copy = _read_only_copy(stored_run, tmp_path)
    before = _digest(copy)
    try:
        assert main(["report", "--store", str(copy), "--json", "--all"]) == 0
        assert json.loads(capsys.readouterr().out) == report
        assert main(["report", "--store", str(copy), "--all"]) == 0
        text = capsys.readouterr().out
        assert "pass^1=1.000" in text and "strict reading" in text
        argv = ["report", "--store", str(copy), "--run", "s", "--without-user-faults", "--json"]
        assert main(argv) == 0
        assert json.loads(capsys.readouterr().out)[0]["strict"] is not None
        page = tmp_path / "report.html"
        assert main(["report", "--store", str(copy), "--all", "--html", str(page)]) == 0
        assert page.stat().st_size > 0
        out = tmp_path / "results.json"
        assert main(["export", "--store", str(copy), "--out", str(out)]) == 0
        assert len(json.loads(out.read_text())["simulations"]) == len(report[0]["tasks"]) * 2
    finally:
        copy.parent.chmod(stat.S_IRWXU)
    assert _digest(copy) == before


def test_read_only_copy__a_command_that_writes_fails_with_one_line(stored_run, tmp_path, capsys):
    copy = _read_only_copy(stored_run, tmp_path)
    try:
        code = main(["run", "--domain", "mock", "--tasks", "create_task", "--store", str(copy)])
    finally:
        copy.parent.chmod(stat.S_IRWXU)
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("tau-env: error:") and len(err.splitlines()) == 1


def _can_mount_read_only(tmp_path):
    probe = tmp_path / "probe"
    probe.mkdir()
    script = f"mount --bind -o ro {probe} {probe} && ! touch {probe}/x 2>/dev/null"
    try:
        result = subprocess.run(
            ["unshare", "-rm", "sh", "-c", script], capture_output=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return result.returncode == 0


def test_read_only_file_system__report_and_export_work(stored_run, tmp_path):
    """The real thing: the store's folder mounted read-only (a private mount namespace)."""
    if not _can_mount_read_only(tmp_path):
        pytest.skip("cannot mount a read-only file system here (unshare -rm not permitted)")
    store, report = stored_run
    folder = store.parent
    command = (
        f"mount --bind -o ro {folder} {folder} && "
        f"{sys.executable} -m tau_env.cli.main report --store {store} --json --all && "
        f"{sys.executable} -m tau_env.cli.main export --store {store} >/dev/null"
    )
    before = _digest(store)
    result = subprocess.run(
        ["unshare", "-rm", "sh", "-c", command],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "TAU_ENV_DEBUG": ""},
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == report
    assert _digest(store) == before
