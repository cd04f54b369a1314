"""Banking speed and memory: BM25 and grep queries, reset, gold episodes per variant, memory.

Usage: ``python benchmarks/banking_knowledge.py [--data-dir DIR] [--episodes 1000]`` (the data
folder defaults to ``TAU2_DATA_DIR``; every figure is on the official knowledge base). Targets
(issue 18): a BM25 query over the official knowledge base <= 1 ms; reset independent of the
knowledge base's size; a whole gold episode <= 2 ms; 1,000 open episodes <= 200 MB. CPU time
(``time.process_time``) is reported beside wall time, since the machine may be shared.
"""

from __future__ import annotations

import argparse
import gc
import os
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
from tau_env.domain import load_domain
from tau_env.domains.banking_knowledge.retrieval.grep import grep_documents
from tau_env.episode_runner import run_episode
from tau_env.wrappers.users import GoldUser

QUERIES = [
    "credit card annual fee",
    "open savings account eligibility",
    "debit card replacement expedited shipping fee",
    "transfer to a human agent reason",
    "cash back dispute",
    "ATM withdrawal limit teen account",
    "overdraft fee refund",
    "Rho-Bank+ subscription benefits",
    "close checking account early closure fee",
    "referral bonus limit",
    "identity verification before account changes",
    "business checking minimum balance",
    "lost stolen card freeze",
    "PIN reset forgotten",
    "interest rate APY gold savings",
    "statement credit retention offer",
    "credit limit increase eligibility",
    "provisional credit regulation E dispute",
    "wire transfer international fees",
    "Platinum Rewards Card cash back",
]


def _cpu_and_wall(function: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """Median wall and CPU seconds of `function` (after one warm-up call)."""
    function()
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        function()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def _row(name: str, wall: float, cpu: float, unit: str, target: str = "") -> dict[str, Any]:
    scale = {"us": 1e6, "ms": 1e3}[unit]
    return {
        "benchmark": name,
        "wall": round(wall * scale, 1),
        "cpu": round(cpu * scale, 1),
        "unit": unit,
        "target": target,
    }


def _median(samples: list[tuple[float, float]]) -> tuple[float, float]:
    """The median wall and CPU time of (wall, CPU) samples."""
    return statistics.median(w for w, _ in samples), statistics.median(c for _, c in samples)


def queries(data_dir: Path) -> list[dict[str, Any]]:
    domain = load_domain("banking_knowledge", data_dir, retrieval="bm25_grep")
    knowledge = domain.data.extras["knowledge_base"]
    world = domain.new_world()
    rows = []
    per_query = [_cpu_and_wall(lambda q=q: knowledge.bm25.top(q, 10), 200) for q in QUERIES]
    rows.append(
        _row("BM25 query, top 10 of 698 documents", *_median(per_query), "us", "<= 1000 us")
    )
    tool = [
        _cpu_and_wall(lambda q=q: world.call_tool("agent", "KB_search", {"query": q}), 50)
        for q in QUERIES
    ]
    rows.append(_row("KB_search tool call (rank + format 10 documents)", *_median(tool), "us"))
    grep = [_cpu_and_wall(lambda q=q: grep_documents(knowledge, q.split()[0]), 20) for q in QUERIES]
    rows.append(_row("grep, one word over 698 documents", *_median(grep), "us"))
    return rows


def _reset_time(data_dir: Path) -> tuple[float, float]:
    env = tau_env.make_env("banking_knowledge", data_dir=data_dir).unwrapped
    task = env.tasks[0]
    env.domain.prepare(task)
    return _cpu_and_wall(lambda: env.reset(options={"task_id": task.id}), 2000)


def reset_by_kb_size(data_dir: Path) -> list[dict[str, Any]]:
    """Reset on the official bank, and on the same bank with 10 documents only."""
    with tempfile.TemporaryDirectory() as tmp:
        small = Path(tmp)
        source = data_dir / "domains" / "banking_knowledge"
        target = small / "domains" / "banking_knowledge"
        shutil.copytree(source, target, ignore=shutil.ignore_patterns("tasks.json", "tasks_*"))
        for path in sorted((target / "documents").glob("*.json"))[10:]:
            path.unlink()
        full, reduced = _reset_time(data_dir), _reset_time(small)
    return [
        _row("reset, 698 documents", *full, "us", "<= 50 us"),
        _row("reset, 10 documents (same database and tasks)", *reduced, "us"),
    ]


def gold_episodes(data_dir: Path) -> list[dict[str, Any]]:
    rows = []
    for variant in ("no_knowledge", "bm25_grep", "full_kb", "golden_retrieval"):
        env = tau_env.make_env("banking_knowledge", data_dir=data_dir, retrieval=variant)
        domain = env.unwrapped.domain
        user = GoldUser.factory(domain)
        tasks = list(env.unwrapped.tasks)
        for task in tasks:  # starting and expected worlds are built once per process
            run_episode(env, OracleAgent, user, task_id=task.id, seed=0)
        walls, cpus = [], []
        for _ in range(3):
            for task in tasks:
                wall, cpu = time.perf_counter(), time.process_time()
                run_episode(env, OracleAgent, user, task_id=task.id, seed=0)
                walls.append(time.perf_counter() - wall)
                cpus.append(time.process_time() - cpu)
        rows.append(
            _row(
                f"whole gold episode, {variant} (97 tasks x 3)",
                statistics.median(walls),
                statistics.median(cpus),
                "us",
                "<= 2000 us",
            )
        )
    return rows


def calibration(data_dir: Path) -> list[dict[str, Any]]:
    """Retail's reset and gold episode in the same run, to read the figures above on a busy
    machine (benchmarks/README.md has retail's on a quiet one: reset ~10 us, episode 0.46 ms)."""
    env = tau_env.make_env("retail", data_dir=data_dir)
    raw = env.unwrapped
    tasks = list(raw.tasks)
    user = GoldUser.factory(raw.domain)
    for task in tasks:
        run_episode(env, OracleAgent, user, task_id=task.id, seed=0)
    first = tasks[0]
    reset = _cpu_and_wall(lambda: raw.reset(options={"task_id": first.id}), 2000)
    walls, cpus = [], []
    for task in tasks:
        wall, cpu = time.perf_counter(), time.process_time()
        run_episode(env, OracleAgent, user, task_id=task.id, seed=0)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    episode = (statistics.median(walls), statistics.median(cpus))
    return [
        _row("calibration: retail/official reset, same run", *reset, "us"),
        _row("calibration: retail/official whole gold episode, same run", *episode, "us"),
    ]


def open_episodes(data_dir: Path, count: int) -> list[dict[str, Any]]:
    """`count` envs mid-episode (after the gold agent's calls), all alive at once."""
    tau_env.make_env("banking_knowledge", data_dir=data_dir)  # data and index, loaded once
    domain = load_domain("banking_knowledge", data_dir)
    tasks = list(domain.tasks)
    for task in tasks:
        domain.prepare(task)
    gc.collect()
    tracemalloc.start()
    envs = []
    for index in range(count):
        task = tasks[index % len(tasks)]
        env = tau_env.make_env("banking_knowledge", data_dir=data_dir).unwrapped
        env.reset(options={"task_id": task.id})
        env.step(SendMessage(content="Hello"))
        for action in task.gold_actions:
            if action.requestor == "assistant" and env.agent_selection == "agent":
                env.step(CallTool(name=action.name, arguments=dict(action.arguments)))
        envs.append(env)
    current, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    megabytes = current / 1e6
    return [
        {
            "benchmark": f"memory of {count} open episodes (one shared index)",
            "wall": round(megabytes, 1),
            "cpu": "",
            "unit": "MB",
            "target": "<= 200 MB",
        }
    ]


def first_load(data_dir: Path) -> list[dict[str, Any]]:
    from tau_env.domain import clear_domain_cache

    clear_domain_cache()
    wall, cpu = time.perf_counter(), time.process_time()
    load_domain("banking_knowledge", data_dir)
    return [
        _row(
            "first load (db, 698 documents, 97 tasks, BM25 index)",
            time.perf_counter() - wall,
            time.process_time() - cpu,
            "ms",
        )
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data-dir", default=os.environ.get("TAU2_DATA_DIR"))
    parser.add_argument("--episodes", type=int, default=1000)
    args = parser.parse_args()
    if not args.data_dir:
        parser.error("banking_knowledge needs the reference data: --data-dir or TAU2_DATA_DIR")
    data_dir = Path(args.data_dir)
    rows = first_load(data_dir)
    rows += queries(data_dir)
    rows += reset_by_kb_size(data_dir)
    rows += gold_episodes(data_dir)
    rows += open_episodes(data_dir, args.episodes)
    rows += calibration(data_dir)
    print(f"# {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores (shared machine)")
    print("| benchmark | wall | CPU | unit | target |\n|---|---|---|---|---|")
    for row in rows:
        cells = [row["benchmark"], row["wall"], row["cpu"], row["unit"], row["target"]]
        print("| " + " | ".join(str(cell) for cell in cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
