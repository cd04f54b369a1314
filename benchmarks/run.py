"""Run every benchmark and print a table: ``python benchmarks/run.py [--quick] [--markdown]``.

Measures import time; each registered domain on built-in data and, when found
(``TAU2_DATA_DIR`` or ``../shared/tau2-data``), on the official data (reset, tool steps and
the env's overhead beyond the tool, grading, whole gold episodes, episodes per second, memory
of N open episodes); the user side's throughput; and an LLM-bound run against the fake server
(wall time over the ideal). Only public tools are used: ``time.perf_counter``,
``time.process_time`` and ``tracemalloc``.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness
import llm_bound
from bench_users import fake_llm_calls, gym_steps, scripted_episodes
from env_benchmarks import Source, benchmark_source
from harness import Stat, official_data_dir, percentiles

from tau_env.domain import has_builtin_data, registered_domains


def import_time(repeat: int) -> Stat:
    """Wall time of ``python -c 'import tau_env'`` minus that of ``python -c 'pass'``."""

    def run(code: str) -> float:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        return time.perf_counter() - start

    samples = [(run("import tau_env") - run("pass")) * 1e3 for _ in range(repeat)]
    median, p10, p90 = percentiles(samples)
    return Stat("import tau_env", "ms", median, p10, p90, repeat, 300.0)


def user_side_stats() -> list[Stat]:
    """Throughput of the user side: scripted episodes, gym-view steps, LLM calls over HTTP."""
    from tau_env.baselines.oracle import PlainTextOracleAgent

    rates = [
        (
            "scripted user + plain-text oracle (mock)",
            "ep/s",
            scripted_episodes(PlainTextOracleAgent),
        ),
        ("gym view, random actions (mock)", "steps/s", gym_steps()),
        ("LLM client over local HTTP (sequential)", "calls/s", fake_llm_calls()),
    ]
    return [Stat(name, unit, rate, rate, rate, 1) for name, unit, rate in rates]


def llm_bound_stats(episodes: int) -> list[Stat]:
    """Wall time of an LLM-bound run (50 ms per model call, concurrency 64) over its ideal."""
    results = llm_bound.benchmark(episodes=episodes, concurrency=64, latency=0.05)
    stats = []
    for name, result in results.items():
        label = f"LLM-bound run, {name} ({result['episodes']:.0f} ep, c=64, 50 ms)"
        stats.append(
            Stat(
                f"{label}: wall / ideal",
                "x",
                result["ratio"],
                result["ratio"],
                result["ratio"],
                1,
                1.1,
            )
        )
        bound = result["ratio_to_packing_bound"]
        stats.append(Stat(f"{label}: wall / zero-overhead packing", "x", bound, bound, bound, 1))
        cpu = result["driver_cpu_ms_per_call"]
        stats.append(Stat(f"{label}: driver CPU per model call", "ms", cpu, cpu, cpu, 1))
    return stats


def render(stats: list[Stat], markdown: bool) -> str:
    rows = [("benchmark", "median", "p10", "p90", "unit", "target", "ok")]
    for s in stats:
        ok = "" if s.meets_target is None else ("yes" if s.meets_target else "NO")
        target = "" if s.target is None else f"<= {s.target:g}"
        rows.append((s.name, f"{s.median:.1f}", f"{s.p10:.1f}", f"{s.p90:.1f}", s.unit, target, ok))
    if markdown:
        lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
        lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
        return "\n".join(lines)
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--domains", default=None, help="comma-separated domains (default: all)")
    parser.add_argument(
        "--open-episodes",
        type=int,
        default=None,
        help="episodes kept open for the memory benchmark (default: 10000; 500 with --quick)",
    )
    parser.add_argument("--skip", default="", help="comma-separated parts to skip: env,users,llm")
    parser.add_argument(
        "--cpu-time",
        action="store_true",
        help="time with this process's CPU time (time.process_time): steadier on a shared machine",
    )
    args = parser.parse_args()
    if args.cpu_time:
        harness.use_cpu_time()
    load_before = os.getloadavg()
    repeat = 200 if args.quick else 2000
    open_episodes = args.open_episodes or (500 if args.quick else 10_000)
    skip = set(args.skip.split(",")) - {""}
    stats = [import_time(3 if args.quick else 10)]
    domains = args.domains.split(",") if args.domains else registered_domains()
    data_dir = official_data_dir()
    for domain in domains:
        sources = [Source(domain, None)] if has_builtin_data(domain) else []
        if data_dir is not None and (data_dir / "domains" / domain).is_dir():
            sources.append(Source(domain, data_dir))
        for source in sources:
            if "env" not in skip:
                stats += benchmark_source(source, repeat=repeat, open_episodes=open_episodes)
    if "users" not in skip:
        stats += user_side_stats()
    if "llm" not in skip:
        stats += llm_bound_stats(100 if args.quick else 400)
    clock = "CPU time (process_time)" if args.cpu_time else "wall time (perf_counter)"
    print(
        f"# {time.strftime('%Y-%m-%d')} on {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}; {clock}; load average (1 min) "
        f"{load_before[0]:.2f} at start, {os.getloadavg()[0]:.2f} at end"
    )
    print(render(stats, args.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
