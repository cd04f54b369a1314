"""Where the bytecodes of whole gold episodes go, per Python function: a deterministic profile.

Usage::

    python benchmarks/bytecode_profile.py [--domain mock] [--top 40] [--data-dir DIR]

Plays every task of the domain's default split once with the oracle agent and the gold user
(warming the per-task caches), then plays them once more under ``sys.settrace`` with opcode
events, counting per Python function the bytecodes it executed itself and the times it was
called. Prints both per step (steps as the reference counts them), by bytecodes.

Unlike a timed profile, the counts are the same on every run and on every machine (for the
same interpreter and tree), so two trees compare exactly; unlike callgrind, they name the
Python functions. They do not see C: a function that hands its work to pydantic or to a
builtin counts only its own bytecodes (instructions per step, `episode_cost.py` under
callgrind, stays the measure of cost). Tracing makes the pass some 30 times slower.
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from episode_cost import warmed_env
from harness import gold_user, official_data_dir

from tau_env.baselines.oracle import OracleAgent
from tau_env.episode_runner import run_episode

_ROOTS = (str(Path(__file__).resolve().parents[1]) + "/", "site-packages/")


def function_name(frame: FrameType) -> str:
    """``file:qualified name`` of the frame's function, the file relative to the repository
    or to site-packages."""
    filename = frame.f_code.co_filename
    for root in _ROOTS:
        filename = filename.split(root)[-1]
    return f"{filename}:{frame.f_code.co_qualname}"


class BytecodeCounter:
    """A ``sys.settrace`` hook that counts bytecodes and calls per function."""

    def __init__(self) -> None:
        self.bytecodes: collections.Counter[str] = collections.Counter()
        self.calls: collections.Counter[str] = collections.Counter()

    def __call__(self, frame: FrameType, event: str, arg: Any) -> BytecodeCounter:
        name = function_name(frame)
        if event == "opcode":
            self.bytecodes[name] += 1
        elif event == "call":
            frame.f_trace_opcodes = True
            self.calls[name] += 1
        return self


def profile(domain: str, data_dir: Path | None) -> tuple[BytecodeCounter, int]:
    """The counts of one warm pass of `domain`, and the steps it played."""
    env = warmed_env(domain, data_dir)
    gold = gold_user(env)
    counter = BytecodeCounter()
    steps = 0
    sys.settrace(counter)
    try:
        for task in env.unwrapped.tasks:
            steps += run_episode(env, OracleAgent, gold, task_id=task.id, seed=1).steps
    finally:
        sys.settrace(None)
    return counter, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domain", default="mock")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--builtin", action="store_true", help="built-in data, not official")
    args = parser.parse_args()
    data_dir = None if args.builtin else official_data_dir(args.data_dir)
    counter, steps = profile(args.domain, data_dir)
    total = sum(counter.bytecodes.values())
    print(
        f"{args.domain}: {steps} steps, {total / steps:.0f} bytecodes and "
        f"{sum(counter.calls.values()) / steps:.1f} Python calls per step"
    )
    print(f"{'bytecodes/step':>14} {'calls/step':>10}  function")
    for name, count in counter.bytecodes.most_common(args.top):
        print(f"{count / steps:14.1f} {counter.calls[name] / steps:10.2f}  {name}")


if __name__ == "__main__":
    main()
