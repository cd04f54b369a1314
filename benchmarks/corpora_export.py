"""How fast ``tau-env export --format sft`` writes a large corpus, on one core, in bounded memory.

``python benchmarks/corpora_export.py [--episodes 100000] [--trials 2] [--format sft]``

Fills a store with one telecom run of the plain-text oracle and the scripted user on the
built-in tasks (480 tasks x ``--trials``), then copies its episodes (new trial numbers, in the
rows and in the stored records) until the run holds ``--episodes`` episodes. Then runs
``tau-env export --format sft --min-reward 1`` (or ``--format preference`` against a random
agent's run of the same seeds) in a child process pinned to one core and prints its wall time,
CPU time, peak resident memory, the lines written and the file's size.

Target (issue 57): 100,000 SFT examples in under 5 minutes on one core.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tau_env.cli.main import main  # noqa: E402
from tau_env.store import ResultStore  # noqa: E402

TARGET_SECONDS = 300.0


def play(store: Path, run_id: str, agent: str, trials: int) -> None:
    args = ["run", "--domain", "telecom", "--agent", agent, "--trials", str(trials)]
    args += ["--store", str(store), "--run", run_id, "--no-progress", "--quiet"]
    assert main(args) == 0


def grow(store: Path, run_id: str, episodes: int) -> int:
    """Copy the run's episodes under new trial numbers until it holds `episodes`."""
    with ResultStore(store) as opened:
        have = opened.episode_count(run_id)
        db = opened._db  # the benchmark's own shortcut: one SQL copy per round
        step = (
            1
            + db.execute("SELECT MAX(trial) FROM episodes WHERE run_id = ?", (run_id,)).fetchone()[
                0
            ]
        )
        round_ = 1
        while have < episodes:
            offset = step * round_
            with db:
                db.execute(
                    "INSERT INTO episodes SELECT run_id, task_id, trial + ?, seed, reward, "
                    "termination, finished_at, stats, json_set(body, '$.trial', trial + ?) "
                    "FROM episodes WHERE run_id = ? AND trial < ? "
                    "ORDER BY task_id, trial LIMIT ?",
                    (offset, offset, run_id, step, episodes - have),
                )
            have = opened.episode_count(run_id)
            round_ += 1
        return have


def export(store: Path, out: Path, fmt: str, runs: str) -> dict[str, float]:
    """Run the export in a child process on one core; its wall and CPU time and peak RSS."""
    argv = [sys.executable, "-m", "tau_env.cli.main", "export", "--store", str(store)]
    argv += ["--format", fmt, "--run", runs, "-o", str(out)]
    if fmt == "sft":
        argv += ["--min-reward", "1"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run(
        argv,
        capture_output=True,
        text=True,
        preexec_fn=lambda: os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}),
        check=True,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(result.stderr.strip())
    return {
        "wall": wall,
        "cpu": (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime),
        "rss_mb": after.ru_maxrss / 1024,
    }


def main_() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=100_000)
    parser.add_argument("--trials", type=int, default=2)
    parser.add_argument("--format", choices=("sft", "preference"), default="sft")
    parser.add_argument("--keep", default=None, help="folder to keep the store and corpus in")
    args = parser.parse_args()
    folder = Path(args.keep or tempfile.mkdtemp(prefix="tau-corpora-"))
    folder.mkdir(parents=True, exist_ok=True)
    store = folder / "runs.sqlite"
    started = time.perf_counter()
    play(store, "oracle", "oracle-text", args.trials)
    runs = "oracle"
    if args.format == "preference":
        play(store, "random", "random", args.trials)
        runs = "oracle,random"
    played = time.perf_counter() - started
    count = grow(store, "oracle", args.episodes)
    if args.format == "preference":
        count += grow(store, "random", args.episodes)
    print(
        f"store: {count} episodes ({played:.0f} s to play, then copied), "
        f"{store.stat().st_size / 1e9:.2f} GB"
    )
    out = folder / f"{args.format}.jsonl"
    figures = export(store, out, args.format, runs)
    with out.open("rb") as file:
        lines = sum(1 for _ in file)
    print(
        f"export --format {args.format}: {lines} lines, {out.stat().st_size / 1e9:.2f} GB in "
        f"{figures['wall']:.1f} s wall, {figures['cpu']:.1f} s CPU on one core "
        f"({1e6 * figures['cpu'] / max(lines, 1):.0f} us CPU per line), "
        f"peak RSS {figures['rss_mb']:.0f} MB"
    )
    if args.format == "sft":
        verdict = "ok" if figures["wall"] < TARGET_SECONDS else "MISSED"
        print(f"target: {args.episodes} examples in under {TARGET_SECONDS:.0f} s: {verdict}")
    if args.keep is None:
        for path in folder.iterdir():
            path.unlink()
        folder.rmdir()


if __name__ == "__main__":
    main_()
