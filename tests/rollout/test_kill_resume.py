"""A run killed with SIGKILL midway loses nothing finished, and resume completes it exactly."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from tau_env.cli.main import main

REPO = Path(__file__).resolve().parents[2]


def _count(path):
    if not path.exists():
        return 0
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT COUNT(*) FROM episodes").fetchone()[0]
    except sqlite3.OperationalError:  # schema not created yet
        return 0
    finally:
        db.close()


def test_sigkill_midway__resume_gives_every_task_trial_exactly_once(tmp_path, capsys):
    store = tmp_path / "runs.sqlite"
    command = [
        sys.executable,
        "-m",
        "tau_env.cli.main",
        "run",
        "--domain",
        "mock",
        "--trials",
        "4",
        "--agent",
        "tests.rollout.agents:SlowOracle",
        "--concurrency",
        "2",
        "--store",
        str(store),
        "--run",
        "killed",
        "--no-progress",
    ]
    process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while _count(store) < 6 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert process.poll() is None, process.communicate()
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    killed_at = _count(store)
    assert 6 <= killed_at < 40

    agent = ["--agent", "tests.rollout.agents:SlowOracle"]  # code: a resume names it again
    assert main(["resume", "--store", str(store), "--run", "killed", *agent, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["pass_hat_k"] == {"1": 1.0, "2": 1.0, "3": 1.0, "4": 1.0}
    assert report["episodes"] == 40
    db = sqlite3.connect(store)
    rows = db.execute("SELECT task_id, trial, COUNT(*) FROM episodes GROUP BY task_id, trial")
    counts = {(task, trial): n for task, trial, n in rows}
    tasks = [r[0] for r in db.execute("SELECT DISTINCT task_id FROM episodes")]
    db.close()
    assert len(tasks) == 10
    assert counts == {(task, trial): 1 for task in tasks for trial in range(4)}
