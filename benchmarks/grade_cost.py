"""Cost of grading finished scripted gold episodes, per domain, as the episode pays for it.

Usage::

    python benchmarks/grade_cost.py [--domains banking_knowledge] [--rounds 5] [--data-dir DIR]
    python benchmarks/grade_cost.py --passes 1       # one untimed grading pass (for callgrind)
    python benchmarks/grade_cost.py --passes 1 --again   # ... of episodes graded once before

Plays every task of each domain's default split with the oracle agent and the gold user (once
to warm the per-task caches: starting and expected worlds), with a grader that only records
the finished episode. The recorded episodes are then graded by the env's own grader: the first
grade of an episode's world is what the end of a live episode costs (tables the episode never
created are created then); ``--again`` grades each once beforehand and measures a second
grade, as ``episode_cost.py``'s standalone figure does. Diagnostics stay deferred, as in a
live episode whose grade nobody reads.

Timed (CPU time, ``time.process_time``) it prints per domain the median first and second
grade. With ``--passes`` the grades run inside one ``functools.reduce`` call (which tau_env
never uses), so callgrind can count exactly them::

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        --collect-atstart=no --toggle-collect=functools_reduce \\
        python benchmarks/grade_cost.py --domains banking_knowledge --passes 1

("Collected" is the instructions of the grades; divide by the episodes printed).
"""

from __future__ import annotations

import functools
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from episode_cost import for_each_domain, warmed_env
from harness import chosen_data_dir, cost_parser, gold_user

from tau_env.baselines.oracle import OracleAgent
from tau_env.episode_runner import run_episode
from tau_env.grading.context import Episode
from tau_env.grading.grader import TaskGrader
from tau_env.grading.outcome import Grade


class _Recorder(TaskGrader):
    """Keeps each finished episode, ungraded, and gives the env a placeholder grade."""

    def __init__(self) -> None:
        super().__init__()
        self.episodes: list[Episode] = []

    def grade(self, episode: Episode) -> Grade:
        self.episodes.append(episode)
        return Grade(reward=1.0, termination=episode.termination)


def _played(env: Any, passes: int) -> list[Episode]:
    """The finished, ungraded episodes of `passes` passes over the env's tasks."""
    raw = env.unwrapped
    grader, recorder = raw.grader, _Recorder()
    gold = gold_user(env)
    raw.grader = recorder
    try:
        for _ in range(passes):
            for task in raw.tasks:
                run_episode(env, OracleAgent, gold, task_id=task.id, seed=1)
    finally:
        raw.grader = grader
    return recorder.episodes


def measure(
    domain: str, data_dir: Path | None, rounds: int, passes: int | None, again: bool
) -> None:
    """Print the figures of one domain (or, with `passes`, just grade that many passes)."""
    env = warmed_env(domain, data_dir)
    grade = env.unwrapped.grader.grade
    if passes is not None:
        episodes = _played(env, passes)
        if again:
            for episode in episodes:
                grade(episode)
        functools.reduce(lambda _, episode: grade(episode), episodes, None)  # callgrind
        print(f"{domain}: {len(episodes)} episodes graded ({'second' if again else 'first'} grade)")
        return
    first, second = [], []
    for episode in _played(env, rounds):
        start = time.process_time()
        grade(episode)
        middle = time.process_time()
        grade(episode)
        first.append((middle - start) * 1e6)
        second.append((time.process_time() - middle) * 1e6)
    print(
        f"{domain}/{'official' if data_dir else 'built-in'} ({len(first)} episodes): "
        f"first grade {statistics.median(first):.1f} us, "
        f"second grade {statistics.median(second):.1f} us (medians, CPU time)"
    )


def main() -> None:
    parser = cost_parser(__doc__, domains="mock,airline,retail,banking_knowledge,telecom")
    parser.add_argument("--again", action="store_true", help="measure a second grade")
    args = parser.parse_args()
    data_dir = chosen_data_dir(args)
    for_each_domain(
        args.domains,
        lambda domain: measure(domain, data_dir, args.rounds, args.passes, args.again),
    )


if __name__ == "__main__":
    main()
