"""Timing and memory helpers for the benchmarks: repeated runs, percentiles, peak memory."""

from __future__ import annotations

import argparse
import os
import statistics
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tau_env.baselines.oracle import OracleAgent
from tau_env.episode_runner import run_episode
from tau_env.wrappers.users import GoldUser

REPO = Path(__file__).resolve().parents[1]

clock: Callable[[], float] = time.perf_counter
"""The clock every timing uses; `use_cpu_time` switches it to this process's CPU time."""


def gold_user(env: Any) -> Callable[[Any], GoldUser]:
    """The gold user for `env`'s tasks: a `GoldUser` that knows the env's domain.

    banking_knowledge states its openings in a vocabulary the domain holds; a `GoldUser` made
    without it opens with the whole scenario, and 43 of the 97 official episodes then end
    after the first message. Every benchmark's gold episode is played with this one.
    """
    return GoldUser.factory(env.unwrapped.domain)


def official_data_dir(given: str | None = None) -> Path | None:
    """The official data folder: `given`, else ``TAU2_DATA_DIR``, else ``../shared/tau2-data``.

    The first of them that holds a ``domains`` folder; None when none does (the benchmarks
    then measure the built-in data only).
    """
    fallback = str(REPO.parent / "shared" / "tau2-data")
    for candidate in (given, os.environ.get("TAU2_DATA_DIR"), fallback):
        if candidate and (Path(candidate) / "domains").is_dir():
            return Path(candidate)
    return None


def use_cpu_time() -> None:
    """Time with ``time.process_time`` (CPU time of this process): steadier on a shared machine."""
    global clock
    clock = time.process_time


@dataclass(frozen=True)
class Stat:
    """A measured quantity over repeated runs."""

    name: str
    unit: str
    median: float
    p10: float
    p90: float
    runs: int
    target: float | None = None  # same unit; None: no target

    @property
    def meets_target(self) -> bool | None:
        return None if self.target is None else self.median <= self.target


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    """(median, p10, p90) of the samples."""
    ordered = sorted(samples)
    if len(ordered) == 1:
        return ordered[0], ordered[0], ordered[0]
    deciles = statistics.quantiles(ordered, n=10, method="inclusive")
    return statistics.median(ordered), deciles[0], deciles[-1]


def time_calls(
    name: str,
    fn: Callable[[], Any],
    *,
    repeat: int,
    unit: str = "us",
    setup: Callable[[], Any] | None = None,
    target: float | None = None,
) -> Stat:
    """Time `fn` `repeat` times (after one warm-up), running `setup` untimed before each call."""
    scale = {"us": 1e6, "ms": 1e3, "s": 1.0}[unit]
    if setup is not None:
        setup()
    fn()
    samples = []
    for _ in range(repeat):
        if setup is not None:
            setup()
        start = clock()
        fn()
        samples.append((clock() - start) * scale)
    median, p10, p90 = percentiles(samples)
    return Stat(name, unit, median, p10, p90, repeat, target)


def time_with_arg(
    name: str,
    fn: Callable[[Any], Any],
    setup: Callable[[], Any],
    *,
    repeat: int,
    unit: str = "us",
    target: float | None = None,
) -> Stat:
    """Like `time_calls`, but `fn` receives what `setup` returned."""
    scale = {"us": 1e6, "ms": 1e3, "s": 1.0}[unit]
    fn(setup())
    samples = []
    for _ in range(repeat):
        value = setup()
        start = clock()
        fn(value)
        samples.append((clock() - start) * scale)
    median, p10, p90 = percentiles(samples)
    return Stat(name, unit, median, p10, p90, repeat, target)


def traced_memory(fn: Callable[[], Any]) -> tuple[Any, float]:
    """Run `fn` under tracemalloc; return its result and the memory still held, in MB.

    The result is kept alive while measuring, so what it references counts.
    """
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        result = fn()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return result, (after - before) / 2**20


def cost_parser(doc: str, domains: str) -> argparse.ArgumentParser:
    """The options every per-domain cost benchmark takes: which domains, which data, how often.

    `doc` is the script's docstring (its first line describes it); `domains` the default list.
    """
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--domains", default=domains)
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--builtin", action="store_true", help="built-in data, not official")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--passes", type=int, default=None, help="untimed passes only")
    return parser


def chosen_data_dir(args: argparse.Namespace) -> Path | None:
    """The data folder `cost_parser`'s options name (None: built-in data)."""
    return None if args.builtin else official_data_dir(args.data_dir)


def timed_gold_episode(
    env: Any, gold: Callable[[Any], GoldUser], task_id: str, timer: Callable[[], float]
) -> tuple[float, Any]:
    """Play task `task_id` with the oracle agent and the `gold` user (seed 1).

    Returns:
        Microseconds on `timer`, and the episode's result.
    """
    start = timer()
    result = run_episode(env, OracleAgent, gold, task_id=task_id, seed=1)
    return (timer() - start) * 1e6, result
