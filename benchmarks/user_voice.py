"""How the scripted user sounds: opening diversity and copying of its instructions, every set.

``python benchmarks/user_voice.py [--seeds 0 1 2 3 4] [--episodes]``

For the built-in telecom train split (the issue's figure) and every task set of every domain
(built-in, and official when ``TAU2_DATA_DIR`` or ``../shared/tau2-data`` holds the data):

- openings over the seeds: distinct per seed, distinct over seeds, the largest share of the
  tasks one opening takes for one seed, tasks whose opening changes with the seed;
- copying (`tau_env.wrappers.users.parroting`: a run of 8 scenario words, names, ids, numbers
  and quoted facts left out): openings that copy, over tasks x seeds;
- with ``--episodes``: every user message of one episode per task and seed 0, against a prober
  agent (questions, offers, claims, refusals) and against the plain-text oracle.

With ``--speech`` (issue 54): every task of every set, against the oracle (structured and
plain text), the random agent and the six off-path agents (`tau_env.baselines.off_path`), for
seeds 0 and 1 (``--speech-seeds``): user messages naming a tool (or with call syntax or an
identifier), holding a program literal, repeating a formatted line of a tool result, or reading
a run of the instructions (12 words read plainly, or 8 masked; ids, amounts and names aside).

Prints a table; asserts nothing (the tests assert the bounds: tests/wrappers/users/).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import Any

import tau_env
from tau_env.baselines.off_path import off_path_factories
from tau_env.baselines.oracle import OracleAgent, PlainTextOracleAgent
from tau_env.baselines.random_agent import RandomAgent
from tau_env.episode_runner import run_episode
from tau_env.errors import DataError, NoBuiltinData
from tau_env.wrappers.users import ScriptedUser
from tau_env.wrappers.users.voice_measures import (
    Prober,
    SpeechFaults,
    copied_messages,
    opening_diversity,
)


def official_dir() -> str | None:
    chosen = os.environ.get("TAU2_DATA_DIR")
    here = Path(__file__).resolve().parents[1].parent / "shared" / "tau2-data"
    folder = Path(chosen) if chosen else here
    return str(folder.resolve()) if (folder / "domains").is_dir() else None


def sources() -> list[tuple[str, str | None, str | None]]:
    """(domain, data dir, split): the issue's set, then every domain's tasks on each data source."""
    found: list[tuple[str, str | None, str | None]] = [("telecom", None, "train")]
    official = official_dir()
    for name in ("airline", "retail", "telecom", "banking_knowledge", "mock"):
        for data in (None, official) if official else (None,):
            try:
                tau_env.load_domain(name, data)
            except (DataError, NoBuiltinData):
                continue
            found.append((name, data, None))
    return found


def episode_copies(name: str, data: str | None, split: str | None) -> tuple[int, int, int]:
    """(episodes, user messages, messages that copy) over the prober and the plain oracle."""
    env = tau_env.make_env(name, data_dir=data)
    domain = env.unwrapped.domain
    episodes = messages = copied = 0
    for task in domain.split(split) if split else domain.tasks:  # every task, any split
        text = str(task.user_scenario)
        for agent in (Prober, PlainTextOracleAgent):
            result = run_episode(env, agent, ScriptedUser.factory(domain), task_id=task.id, seed=0)
            said = [m.content for m in result.trajectory if m.role == "user" and m.content]
            episodes += 1
            messages += len(said)
            copied += len(copied_messages(said, text))
    return episodes, messages, copied


def speech_agents() -> dict[str, Any]:
    """The agents the speech measure plays: the oracles, the random agent, the off-path ones."""
    return {
        "oracle": OracleAgent,
        "oracle-text": PlainTextOracleAgent,
        "random": RandomAgent,
        **off_path_factories(),
    }


def speech(name: str, data: str | None, seeds: list[int]) -> tuple[SpeechFaults, int]:
    """The speech faults of every task of a set, every agent of `speech_agents`, each seed."""
    env = tau_env.make_env(name, data_dir=data)
    domain = env.unwrapped.domain
    tools = set(domain.toolbox.tools("user").names) | set(domain.toolbox.tools("agent").names)
    figures = SpeechFaults()
    tasks = list(domain.tasks)
    for task in tasks:
        text = str(task.user_scenario)
        for agent in speech_agents().values():
            for seed in seeds:
                user = ScriptedUser.factory(domain)
                result = run_episode(env, agent, user, task_id=task.id, seed=seed)
                figures.add(result.trajectory, text, tools)
    return figures, len(tasks)


def print_speech(seeds: list[int]) -> None:
    """The ``--speech`` table (and the first examples of faults, if any)."""
    print(
        "| set | tasks | episodes | user messages | tool names | literals | raw output |"
        " instruction runs | seconds |"
    )
    print("|" + "---|" * 9)
    examples: list[tuple[str, str]] = []
    for name, data, split in sources():
        if split:
            continue  # the telecom train split is part of the built-in telecom set
        start = time.perf_counter()
        figures, tasks = speech(name, data, seeds)
        label = f"{name} {'official' if data else 'built-in'}"
        print(
            f"| {label} | {tasks} | {figures.episodes} | {figures.messages} | "
            f"{figures.tool_names} | {figures.literals} | {figures.raw_output} | "
            f"{figures.copied} | {time.perf_counter() - start:.0f} |",
            flush=True,
        )
        examples += [(label, f"{what} -- {said[:160]}") for what, said in figures.examples]
    for label, example in examples[:30]:
        print(f"- {label}: {example}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    parser.add_argument("--episodes", action="store_true", help="also play episodes")
    parser.add_argument("--speech", action="store_true", help="the speech measure alone")
    parser.add_argument("--speech-seeds", type=int, nargs="+", default=[0, 1])
    args = parser.parse_args()
    if args.speech:
        print_speech(args.speech_seeds)
        return
    print(
        "| set | tasks | distinct per seed | distinct over seeds | max share | varied tasks |"
        " openings copying | episodes | user messages | messages copying | seconds |"
    )
    print("|" + "---|" * 11)
    for name, data, split in sources():
        start = time.perf_counter()
        domain = tau_env.load_domain(name, data)
        tasks = tau_env.load_tasks(name, data_dir=data, split=split) if split else domain.tasks
        figures = opening_diversity(tasks, domain, args.seeds)
        played = episode_copies(name, data, split) if args.episodes else ("-", "-", "-")
        label = f"{name} {'official' if data else 'built-in'}{f' {split}' if split else ''}"
        print(
            f"| {label} | {figures.tasks} | {list(figures.distinct_per_seed)} | "
            f"{figures.distinct_over_seeds} | {figures.max_share:.1%} | {figures.varied_tasks} | "
            f"{len(figures.copied)}/{figures.tasks * len(figures.seeds)} | "
            f"{played[0]} | {played[1]} | {played[2]} | {time.perf_counter() - start:.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
