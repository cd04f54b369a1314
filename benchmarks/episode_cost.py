"""Cost of whole scripted gold episodes, per domain, in CPU time or in instructions.

Usage::

    python benchmarks/episode_cost.py [--domains telecom,airline] [--rounds 5] [--data-dir DIR]
    python benchmarks/episode_cost.py --passes 1      # exactly one untimed pass (for callgrind)

Plays every task of each domain's default split with the oracle agent and the gold user once
to warm the per-task caches, then `rounds` more times, timing each episode with this process's
CPU time (``time.process_time``, steadier than wall time on a shared machine). Prints per
domain the median whole episode, the median all-inclusive cost per step (reset + every step +
grade, divided by the episode's steps as the reference counts them) and the median grading of
one finished episode.

For a deterministic figure, count instructions with callgrind: ``--instructions`` prints each
domain's instructions per step of one warm pass (valgrind must be installed). Unlike a time,
the count is the same on every machine and under any load, for the same interpreter, packages
and tree, so it is the figure that compares trees and sessions. It runs, per domain::

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        --collect-atstart=no --toggle-collect=functools_reduce \\
        PYTHON benchmarks/episode_cost.py --domains telecom --passes 1

With ``--passes`` the passes run inside one ``functools.reduce`` call (which tau_env never
uses), so callgrind can collect exactly them ("Collected" is the instructions of the passes;
divide by the episodes or steps printed). PYTHON must be the interpreter itself
(``sys.executable``): valgrind given a launcher script (pyenv's ``python`` shim) measures the
shell and collects 0. Like a run (`tau_env.rollout`), the benchmark plays under
`spaced_collections` (fewer young-generation collections).

With ``--passes``, ``--loop`` picks how the episodes are driven: ``participants`` (default,
`run_episode`: the participants read their views), ``aec`` (PettingZoo's loop, reading
``env.last()``, so an observation, before every turn) or ``single-agent`` (`SingleAgentEnv` with
the gold user inside; the oracle's actions given to its ``step``, which returns the agent's
observation). The observing loops show what observations cost on top of the env's own work.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import chosen_data_dir, cost_parser, gold_user, timed_gold_episode

import tau_env
from tau_env.baselines.oracle import OracleAgent
from tau_env.episode_runner import run_episode
from tau_env.grading.context import Episode
from tau_env.rollout.collector import spaced_collections
from tau_env.tasks.model import Task
from tau_env.wrappers.single_agent import SingleAgentEnv

LOOPS = ("participants", "aec", "single-agent")


def warmed_env(domain: str, data_dir: Path | None) -> Any:
    """The domain's env, every task of its split played once with the gold participants.

    The first episode of a task builds its per-task caches (starting and expected worlds);
    the figures are those of the episodes after it.
    """
    env = tau_env.make_env(domain, data_dir=data_dir)
    gold = gold_user(env)
    for task in env.unwrapped.tasks:
        run_episode(env, OracleAgent, gold, task_id=task.id, seed=1)
    return env


def for_each_domain(domains: str, measure_one: Callable[[str], None]) -> None:
    """Measure each of the comma-separated `domains`, between two load-average lines.

    Under the garbage collector's settings of a run (`tau_env.rollout` plays its episodes
    under them), so that the figures are those of the episodes a run plays.
    """
    print(f"# load average (1 min) {os.getloadavg()[0]:.2f}")
    with spaced_collections():
        for domain in domains.split(","):
            measure_one(domain)
    print(f"# load average (1 min) {os.getloadavg()[0]:.2f}")


def source_label(domain: str, data_dir: Path | None) -> str:
    """``domain/official`` or ``domain/built-in``: how this benchmark's lines name their data."""
    return f"{domain}/{'official' if data_dir else 'built-in'}"


def episode_player(env: Any, loop: str) -> Callable[[Task], int]:
    """Plays one gold episode of a task the `loop` way (see the module's doc); returns its steps."""
    raw = env.unwrapped
    gold = gold_user(env)
    if loop == "participants":
        return lambda task: run_episode(env, OracleAgent, gold, task_id=task.id, seed=1).steps
    if loop == "aec":

        def play_aec(task: Task) -> int:
            env.reset(seed=1, options={"task_id": task.id})
            players = {"agent": OracleAgent(task), "user": gold(task)}
            for side in env.agent_iter():
                _, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                else:
                    env.step(players[side].act(raw.view(side), raw.context(side)))
            return int(raw.conversation.step_count)

        return play_aec
    single = SingleAgentEnv(env, gold)

    def play_single(task: Task) -> int:
        single.reset(seed=1, options={"task_id": task.id})
        agent, done = OracleAgent(task), False
        while not done:
            _, _, terminated, truncated, _ = single.step(
                agent.act(raw.view("agent"), raw.context("agent"))
            )
            done = terminated or truncated
        return int(raw.conversation.step_count)

    return play_single


def measure(
    domain: str, data_dir: Path | None, rounds: int, passes: int | None, loop: str = LOOPS[0]
) -> None:
    """Print the figures of one domain (or, with `passes`, just play that many passes)."""
    env = warmed_env(domain, data_dir)
    raw = env.unwrapped
    tasks = list(raw.tasks)
    gold = gold_user(env)
    if passes is not None:
        play_one = episode_player(env, loop)
        for task in tasks:  # this loop's own first use (a wrapper's caches)
            play_one(task)

        def play(steps: int, task: Task) -> int:
            return steps + play_one(task)

        steps = functools.reduce(play, tasks * passes, 0)  # callgrind: --toggle-collect
        print(f"{domain}: {passes} pass(es), {len(tasks)} tasks, {steps} steps ({loop} loop)")
        return
    whole, per_step, grading = [], [], []
    for _ in range(rounds):
        for task in tasks:
            elapsed, result = timed_gold_episode(env, gold, task.id, time.process_time)
            whole.append(elapsed)
            per_step.append(elapsed / max(1, result.steps))
            conversation = raw.conversation
            episode = Episode(
                task,
                conversation.trajectory,
                conversation.world,
                result.grade.termination,
                lambda t=task: raw.domain.expected_world(t),
            )
            start = time.process_time()
            raw.grader.grade(episode)
            grading.append((time.process_time() - start) * 1e6)
    print(
        f"{source_label(domain, data_dir)} ({len(tasks)} tasks x {rounds}): "
        f"whole episode {statistics.median(whole):.1f} us, "
        f"all-inclusive per step {statistics.median(per_step):.2f} us, "
        f"grade {statistics.median(grading):.1f} us (medians, CPU time)"
    )


def instructions_per_step(domain: str, data_dir: Path | None, loop: str = LOOPS[0]) -> str:
    """One line: `domain`'s instructions per step of one warm pass, counted by callgrind.

    Runs this script with ``--passes 1`` under callgrind (collecting only the pass, see the
    module's doc) with this interpreter itself, so that a launcher script in front of it
    cannot make callgrind measure the wrong process.

    Raises:
        SystemExit: valgrind is not installed, or the counted run failed or printed no count.
    """
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("--instructions needs valgrind (apt-get install valgrind)")
    command = [
        valgrind,
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        "--collect-atstart=no",
        "--toggle-collect=functools_reduce",
        sys.executable,
        str(Path(__file__).resolve()),
        "--domains",
        domain,
        "--passes",
        "1",
        "--loop",
        loop,
    ]
    command += ["--builtin"] if data_dir is None else ["--data-dir", str(data_dir)]
    done = subprocess.run(
        command, capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"}
    )
    collected = re.search(r"Collected : (\d+)", done.stderr)
    steps = re.search(r"(\d+) steps", done.stdout)
    if done.returncode != 0 or collected is None or steps is None:
        raise SystemExit(f"the counted run of {domain} failed:\n{done.stdout}{done.stderr}")
    instructions, played = int(collected.group(1)), int(steps.group(1))
    per_step = instructions / played / 1000
    return (
        f"{source_label(domain, data_dir)}: {per_step:.1f} k instructions per step "
        f"({instructions:,} over {played} steps, {loop} loop, callgrind)"
    )


def main() -> None:
    parser = cost_parser(__doc__, domains="mock,airline,retail,telecom,telecom-workflow")
    parser.add_argument("--loop", choices=LOOPS, default=LOOPS[0], help="with --passes")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="instructions per step of one warm pass, counted by callgrind (needs valgrind)",
    )
    args = parser.parse_args()
    if args.instructions and args.passes is not None:
        parser.error("--instructions plays one pass itself; give it without --passes")
    if args.loop != LOOPS[0] and args.passes is None and not args.instructions:
        parser.error("--loop is for --passes or --instructions (instruction counts)")
    data_dir = chosen_data_dir(args)
    if args.instructions:
        for domain in args.domains.split(","):
            print(instructions_per_step(domain, data_dir, args.loop), flush=True)
        return
    for_each_domain(
        args.domains,
        lambda domain: measure(domain, data_dir, args.rounds, args.passes, args.loop),
    )


if __name__ == "__main__":
    main()
