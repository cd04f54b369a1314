"""Retail speed and memory: reset, tool calls through ``env.step``, grading, gold episodes.

Usage: ``python benchmarks/retail_domain.py [--data-dir DIR] [--episodes 10000]``; the data
folder defaults to ``TAU2_DATA_DIR``; without one only the built-in data is measured. Figures
are medians over every task (warm: each task's starting world and expected world are built
once per process, before timing). `benchmarks/run.py` measures every domain the same way;
this script adds the retail-specific figures: look-ups and reset on a store 40 times the
official one, and 10,000 open episodes.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import shutil
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tau_env
from tau_env.actions import CallTool, SendMessage
from tau_env.baselines.oracle import OracleAgent
from tau_env.domains.retail.data_model import name_zip_key
from tau_env.domains.retail.lookup import first_user_matching
from tau_env.episode_runner import run_episode
from tau_env.grading import Episode
from tau_env.wrappers.users import GoldUser


def _median_us(samples: list[float]) -> float:
    return statistics.median(samples) * 1e6


def _timed(function: Callable[[], Any]) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def _pending_order(env: Any) -> str:
    world = env.unwrapped.domain.new_world()
    return next(o.order_id for o in world.agent_db.orders.values() if o.status == "pending")


def measure(data_dir: Path | None, label: str) -> dict[str, float]:
    """Median timings (µs) on one data source."""
    load_start = time.perf_counter()
    env = tau_env.make_env("retail", data_dir=data_dir)
    load = time.perf_counter() - load_start
    raw = env.unwrapped
    tasks = [task.id for task in raw.tasks]
    for task_id in tasks:  # warm: starting and expected worlds are built once per task
        run_episode(env, OracleAgent, GoldUser, task_id=task_id, seed=0)
    resets = [_timed(lambda t=t: env.reset(seed=1, options={"task_id": t})) for t in tasks * 3]
    order_id = _pending_order(env)
    reads, writes = [], []
    for task_id in tasks:
        env.reset(seed=1, options={"task_id": task_id})
        env.step(SendMessage(content="Hello"))  # the user speaks; the agent has the floor
        read = CallTool(name="get_order_details", arguments={"order_id": order_id})
        write = CallTool(
            name="cancel_pending_order",
            arguments={"order_id": order_id, "reason": "no longer needed"},
        )
        reads.append(_timed(lambda read=read: env.step(read)))
        writes.append(_timed(lambda write=write: env.step(write)))
    grades, episodes = [], []
    for task_id in tasks:
        episodes.append(
            _timed(lambda t=task_id: run_episode(env, OracleAgent, GoldUser, task_id=t))
        )
        conversation = raw.conversation
        finished = Episode(
            task=raw.task,
            trajectory=conversation.trajectory,
            world=conversation.world,
            termination=conversation.termination,
            expected_world_factory=lambda t=raw.task: raw.domain.expected_world(t),
        )
        grades.append(_timed(lambda e=finished: raw.grader.grade(e)))
    figures = {
        "load_s": load,
        "reset_us": _median_us(resets),
        "read_step_us": _median_us(reads),
        "write_step_us": _median_us(writes),
        "grade_us": _median_us(grades),
        "gold_episode_us": _median_us(episodes),
    }
    print(f"[{label}] {len(tasks)} tasks, first load {load:.2f} s")
    for name, value in figures.items():
        if name != "load_s":
            print(f"  {name:<16} {value:9.1f}")
    return figures


def memory(data_dir: Path | None, count: int) -> dict[str, float]:
    """KB per open episode: its state alone (world and conversation), and with an env each.

    The state is what `reset` and the steps create; a whole env adds the PettingZoo shell
    (spaces, tool schemas), which the core builds per env.
    """
    env = tau_env.make_env("retail", data_dir=data_dir)
    tasks = [task.id for task in env.unwrapped.tasks]
    for task_id in tasks:
        run_episode(env, OracleAgent, GoldUser, task_id=task_id, seed=0)
    order_id = _pending_order(env)
    write = CallTool(
        name="cancel_pending_order", arguments={"order_id": order_id, "reason": "no longer needed"}
    )

    def play(episode: Any, index: int) -> None:
        episode.reset(seed=index, options={"task_id": tasks[index % len(tasks)]})
        episode.step(SendMessage(content="Hello"))
        episode.step(write)

    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    states = []
    for index in range(count):  # one env, many episodes kept open
        play(env, index)
        states.append((env.unwrapped.task, env.unwrapped.conversation))
    gc.collect()
    state_kb = (tracemalloc.get_traced_memory()[0] - before) / count / 1024
    states.clear()
    gc.collect()
    shells = min(count, 500)
    before = tracemalloc.get_traced_memory()[0]
    envs = []
    for index in range(shells):  # an env per episode (a few hundred are enough per env)
        episode = tau_env.make_env("retail", data_dir=data_dir)
        play(episode, index)
        envs.append(episode)
    gc.collect()
    env_kb = (tracemalloc.get_traced_memory()[0] - before) / shells / 1024
    tracemalloc.stop()
    print(
        f"  episode state      {state_kb:9.1f} KB -> {count} open: {state_kb * count / 1024:.0f} MB"
    )
    print(f"  env + episode      {env_kb:9.1f} KB -> {count} open: {env_kb * count / 1024:.0f} MB")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  peak RSS of this process {rss:.0f} MB")
    return {"state_kb": state_kb, "env_kb": env_kb}


def scaled_copy(data_dir: Path, factor: int, out: Path) -> tuple[int, int]:
    """A data folder whose retail store is `factor` times the official one (tasks unchanged).

    Copies come after the originals, so every official task still finds its own records first.
    """
    source = data_dir / "domains" / "retail"
    raw = json.loads((source / "db.json").read_text())
    users, orders = dict(raw["users"]), dict(raw["orders"])
    for copy in range(1, factor):
        for user_id, user in raw["users"].items():
            clone = json.loads(json.dumps(user))
            clone["user_id"] = f"{user_id}_c{copy}"
            clone["email"] = f"c{copy}.{user['email']}"
            clone["orders"] = [f"#C{copy}{order_id[1:]}" for order_id in user["orders"]]
            users[clone["user_id"]] = clone
        for order_id, order in raw["orders"].items():
            clone = json.loads(json.dumps(order))
            clone["order_id"] = f"#C{copy}{order_id[1:]}"
            clone["user_id"] = f"{order['user_id']}_c{copy}"
            orders[clone["order_id"]] = clone
    target = out / "domains" / "retail"
    target.mkdir(parents=True)
    (target / "db.json").write_text(json.dumps({**raw, "users": users, "orders": orders}))
    for name in ("tasks.json", "split_tasks.json", "policy.md"):
        shutil.copy(source / name, target / name)
    return len(users), len(orders)


def _store_figures(where: Path) -> tuple[int, float, float, float]:
    """Users, median reset, indexed and scanning name+zip look-up of an unknown user (µs)."""
    env = tau_env.make_env("retail", data_dir=where)
    tasks = [task.id for task in env.unwrapped.tasks]
    for task_id in tasks:
        env.reset(seed=0, options={"task_id": task_id})
    resets = [_timed(lambda t=t: env.reset(seed=1, options={"task_id": t})) for t in tasks * 3]
    users = env.unwrapped.domain.new_world().agent_db.users
    last = list(users.values())[-1]
    wanted = (last.name.first_name.lower(), last.name.last_name.lower(), "00000")  # no match
    indexed = env.unwrapped.domain.data.agent_snapshot.records["users"]
    plain = dict(indexed)  # a plain mapping: the look-up falls back to a scan
    first_user_matching(users, indexed, name_zip_key, wanted)  # builds the index once
    fast = [
        _timed(lambda: first_user_matching(users, indexed, name_zip_key, wanted))
        for _ in range(200)
    ]
    slow = [
        _timed(lambda: first_user_matching(users, plain, name_zip_key, wanted)) for _ in range(20)
    ]
    return len(users), _median_us(resets), _median_us(fast), _median_us(slow)


def scaling(data_dir: Path, factor: int) -> None:
    """Reset and look-ups on the official store and on a store `factor` times larger."""
    with tempfile.TemporaryDirectory() as folder:
        scaled_copy(data_dir, factor, Path(folder))
        for label, where in (("official", data_dir), ("scaled", Path(folder))):
            users, reset, fast, slow = _store_figures(where)
            print(
                f"  {label:<9} {users:>6} users: reset {reset:6.1f} us; failed name+zip "
                f"look-up {fast:5.1f} us (a scan: {slow:8.1f} us)"
            )


def main() -> None:
    """Run every measurement and print the figures."""
    parser = argparse.ArgumentParser()
    default = os.environ.get("TAU2_DATA_DIR")
    parser.add_argument("--data-dir", type=Path, default=Path(default) if default else None)
    parser.add_argument("--episodes", type=int, default=10_000)
    parser.add_argument("--scale", type=int, default=40, help="size factor of the scaled store")
    args = parser.parse_args()
    measure(None, "built-in")
    if args.data_dir is not None:
        measure(args.data_dir, "official")
    if args.data_dir is not None:
        print(f"[scaling: official store and {args.scale}x]")
        scaling(args.data_dir, args.scale)
    print(f"[memory, {'official' if args.data_dir else 'built-in'}]")
    memory(args.data_dir, args.episodes)


if __name__ == "__main__":
    main()
