"""How well the scripted user understands agents: the paraphrase corpus and whole telecom plans.

``python benchmarks/user_understanding.py [--rotations 6] [--failures]``

1. **Comprehension** of each half of the paraphrase corpus
   (``tests/wrappers/users/data/paraphrases_{tuning,heldout}.toml``): the share of wordings
   understood (`tau_env.wrappers.users.comprehension`), by kind and by domain; of the wordings
   not understood, how many the user acted on wrongly (a call it was not asked for, or a call
   missing), said it did not understand, or answered otherwise; and the wrong actions (a call
   it was not asked for). ``--failures`` lists the
   tuning half's failures (never the held-out half's: it is not read to fit the vocabulary).
2. **Whole plans**: `ParaphrasingOracleAgent` (an oracle: it follows the gold plan) asks for
   each user step of built-in telecom ``test`` and official telecom ``test`` (when
   ``TAU2_DATA_DIR`` or ``../shared/tau2-data`` holds the data) in the held-out wordings,
   against the scripted user of each task's persona; ``--rotations`` episodes per task, each
   starting the plan at another wording, so that every wording is said. Asked again with the
   same words when the user did not follow, and with the next wording (``rephrase``); and with
   the consecutive user steps of the plan asked in one message (``grouped``, several requests
   in one message, asked again with the same words).

Prints tables; asserts nothing (tests/wrappers/users/test_comprehension.py asserts the bounds;
benchmarks/README.md, "Issue 54 item 1", records the results).
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter
from pathlib import Path

import tau_env
from tau_env.baselines.paraphrasing_oracle import ParaphrasingOracleAgent, StepWordings
from tau_env.episode_runner import run_episode
from tau_env.wrappers.users import ScriptedUser
from tau_env.wrappers.users.comprehension import (
    Comprehension,
    Outcome,
    comprehension,
    load_corpus,
    not_understood_phrases,
    step_wordings,
)

DATA = Path(__file__).resolve().parents[1] / "tests" / "wrappers" / "users" / "data"


def official_dir() -> str | None:
    chosen = os.environ.get("TAU2_DATA_DIR")
    here = Path(__file__).resolve().parents[1].parent / "shared" / "tau2-data"
    folder = Path(chosen) if chosen else here
    return str(folder.resolve()) if (folder / "domains").is_dir() else None


def failure_kind(outcome: Outcome) -> str:
    """How a wording was not understood: acted wrongly, said so, or answered otherwise."""
    if outcome.calls:
        return "acted wrongly"
    return "said it did not understand" if _said_so(outcome) else "answered otherwise"


def wrong_action(outcome: Outcome) -> bool:
    """The user ran a call the wording did not ask for (any call, for a question or an
    unclear request)."""
    asked = {tool for name, _ in outcome.wording.calls for tool in name.split("|")}
    return any(name not in asked for name, _ in outcome.calls)


def _said_so(outcome: Outcome) -> bool:
    return any(p.split("{")[0].strip() in outcome.reply for p in not_understood_phrases())


def print_comprehension(half: str, found: Comprehension, failures: bool) -> None:
    kinds = Counter(failure_kind(o) for o in found.failures)
    print(f"\n{half}: {found.rate:.3f} of {len(found.outcomes)} wordings understood")
    print("  by kind:   " + ", ".join(f"{k} {v:.3f}" for k, v in found.by("kind").items()))
    print("  by domain: " + ", ".join(f"{k} {v:.3f}" for k, v in found.by("domain").items()))
    print("  not understood: " + (", ".join(f"{k} {v}" for k, v in kinds.items()) or "none"))
    print(f"  wrong actions (a call not asked for): {sum(map(wrong_action, found.failures))}")
    if failures and half == "tuning":
        for outcome in found.failures:
            print(f"    {outcome.wording.text!r} -> {outcome.calls} | {outcome.reply[:80]!r}")


def plans(
    data_dir: str | None,
    wordings: StepWordings,
    rotations: int,
    rephrase: bool,
    grouped: bool = False,
) -> tuple[int, float]:
    """(episodes, average reward) of telecom ``test`` played with the paraphrasing oracle."""
    env = tau_env.make_env("telecom", data_dir=data_dir, split="test")
    domain = env.unwrapped.domain
    rewards = []
    for rotation in range(rotations):
        agent = ParaphrasingOracleAgent.factory(wordings, rotation, rephrase, grouped)
        for task in env.unwrapped.tasks:
            user = ScriptedUser.factory(domain)
            result = run_episode(env, agent, user, task_id=task.id, seed=rotation)
            rewards.append(result.reward or 0.0)
    return len(rewards), sum(rewards) / len(rewards)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rotations", type=int, default=6)
    parser.add_argument("--failures", action="store_true", help="list the tuning failures")
    args = parser.parse_args()
    halves = ("tuning", "heldout")
    corpora = {half: load_corpus(DATA / f"paraphrases_{half}.toml") for half in halves}
    for half, corpus in corpora.items():
        start = time.perf_counter()
        found = comprehension(corpus)
        print_comprehension(half, found, args.failures)
        print(f"  ({time.perf_counter() - start:.1f} s)")
    wordings = step_wordings(corpora["heldout"], "telecom")
    print("\n| telecom test | asked again | episodes | pass rate |")
    print("|---|---|---|---|")
    for label, data_dir in (("built-in", None), ("official", official_dir())):
        if label == "official" and data_dir is None:
            continue
        for again, rephrase, grouped in (
            ("same words", False, False),
            ("next wording", True, False),
            ("same words, steps grouped", False, True),
        ):
            episodes, rate = plans(data_dir, wordings, args.rotations, rephrase, grouped)
            print(f"| {label} | {again} | {episodes} | {rate:.3f} |")


if __name__ == "__main__":
    main()
