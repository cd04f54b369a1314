"""A run killed with SIGKILL at several random points resumes to the uninterrupted result (item 4).

One run is killed again and again, each time at a point drawn from a fixed seed: right after
the run is created (before any episode), then after a drawn number of newly stored episodes plus
a drawn delay of a few milliseconds (so the kill lands anywhere: mid-episode, mid-write, between
writes), each kill hitting a ``tau-env resume`` of the previous one. A last resume finishes it.
The store then holds every (task, trial) exactly once, passes SQLite's integrity check, and
gives the same rewards and the same pass^k as an uninterrupted run with the same seeds, with an
agent whose outcome varies with the seed (so pass^k is neither 0 nor 1).
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from tau_env.rollout import ParticipantSpec, RunConfig, create_run, run, run_report
from tau_env.store import ResultStore
from tests.reliability.tally import count

REPO = Path(__file__).resolve().parents[2]
AGENT = "tests.reliability.agents:FlakyOracle"
TRIALS = 4
TASKS = 10  # every built-in mock task
KILL_SEED = 9
KILLS = 5  # kill points after the first one (run created, no episode yet)


def _rows(store: Path, query: str) -> list[tuple]:
    if not store.exists():
        return []
    db = sqlite3.connect(store)
    try:
        return db.execute(query).fetchall()
    except sqlite3.OperationalError:  # tables not created yet
        return []
    finally:
        db.close()


def _episodes(store: Path) -> int:
    rows = _rows(store, "SELECT COUNT(*) FROM episodes")
    return rows[0][0] if rows else 0


def _start(store: Path, command: str) -> subprocess.Popen:
    arguments = ["--store", str(store), "--run", "killed", "--no-progress", "--concurrency", "3"]
    arguments += ["--agent", AGENT]  # code: a resume names it again, as the run did
    if command == "run":
        arguments += ["--domain", "mock", "--trials", str(TRIALS)]
    return subprocess.Popen(
        [sys.executable, "-m", "tau_env.cli.main", command, *arguments],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _kill_when(process: subprocess.Popen, ready, extra_delay: float) -> None:
    """SIGKILL `process` once `ready()` holds, after `extra_delay` seconds more."""
    deadline = time.monotonic() + 120
    while not ready() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    time.sleep(extra_delay)
    assert process.poll() is None, f"finished before its kill point: {process.communicate()}"
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert process.returncode == -signal.SIGKILL


def test_sigkill_at_random_points__resume_completes_exactly_like_an_uninterrupted_run(tmp_path):
    store = tmp_path / "killed.sqlite"
    planned = TASKS * TRIALS
    rng = random.Random(KILL_SEED)
    steps = [rng.randint(2, 7) for _ in range(KILLS)]  # episodes each resume adds before its kill
    delays = [rng.uniform(0, 0.03) for _ in range(KILLS)]
    counts_at_kill = []

    # kill point 0: the run exists, no episode has been stored yet
    process = _start(store, "run")
    _kill_when(process, lambda: bool(_rows(store, "SELECT run_id FROM runs")), 0.0)
    counts_at_kill.append(_episodes(store))
    for step, delay in zip(steps, delays, strict=True):
        target = _episodes(store) + step
        process = _start(store, "resume")
        _kill_when(process, lambda t=target: _episodes(store) >= t, delay)
        counts_at_kill.append(_episodes(store))
    assert counts_at_kill[0] < planned and counts_at_kill[-1] < planned, counts_at_kill
    assert counts_at_kill == sorted(counts_at_kill), "a kill lost stored episodes"

    final = _start(store, "resume")
    _, err = final.communicate(timeout=120)
    assert final.returncode == 0, err.decode()

    assert _rows(store, "PRAGMA integrity_check") == [("ok",)]
    rows = _rows(store, "SELECT task_id, trial, COUNT(*) FROM episodes GROUP BY task_id, trial")
    assert len(rows) == planned and {n for _, _, n in rows} == {1}
    assert {trial for _, trial, _ in rows} == set(range(TRIALS))

    reference = tmp_path / "reference.sqlite"
    with ResultStore(reference) as opened:
        config = RunConfig(
            run_id="whole",
            domain="mock",
            task_ids=tuple(sorted({task for task, _, _ in rows})),
            trials=TRIALS,
            agent=ParticipantSpec(kind=AGENT),
            user=ParticipantSpec(kind="scripted"),
        )
        create_run(opened, config)
        run(opened, config)
        whole = run_report(opened, "whole")
        expected_rewards = opened.rewards("whole")
    with ResultStore(store) as opened:
        resumed = run_report(opened, "killed")
        rewards = opened.rewards("killed")
        failures = opened.failures("killed")
    assert rewards == expected_rewards
    assert resumed.pass_hat_k == whole.pass_hat_k
    assert 0.0 < whole.pass_hat_k[1] < 1.0 and whole.pass_hat_k[TRIALS] < whole.pass_hat_k[1]
    assert failures == [], "a kill must not be recorded as a failure of the run"
    for index, stored in enumerate(counts_at_kill):
        count("SIGKILL points tried (mock, 10 tasks x 4 trials)", f"kill {index}: {stored} stored")
    count("episodes lost or duplicated after kills and resume", "mock", planned - len(rows))
