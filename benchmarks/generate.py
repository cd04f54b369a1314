"""``tau-env generate`` at scale: time and peak memory per domain and set size, on one core.

Each (domain, N) runs in a fresh process (``python benchmarks/generate.py --child``), so its
peak resident memory (``ru_maxrss``) is its own. The pipeline's stages are timed from its
progress lines: drawing (world, candidates, deduplication, difficulty, selection, rendering),
verification (every task played by the oracle agent with the gold user, reward 1.0 required),
and the rest (manifest, rename). Verified tasks per second is N over the whole wall time
(process start-up and imports excluded), and per CPU second over the process's user + system
time (imports included): the per-core figure, which other jobs on the machine do not inflate.

    python benchmarks/generate.py                       # N = 1,000 and 10,000, every domain
    python benchmarks/generate.py --sizes 1000 --domains telecom,retail
    python benchmarks/generate.py --audit-sample 100    # also the manifest's probe audit
    python benchmarks/generate.py --sizes 1000,10000,100000 --domains airline,retail \
        --world-size airline=58596,retail=36000

Peak memory is the process's peak resident set (``ru_maxrss``), and the peak up to the end
of drawing (world, candidates, selection, writing) beside it: when the whole peak is higher,
it is the verification's (the written set loaded again), which starts after the drawn world
is dropped, so the two stages' peaks do not add up.

Rows are kept per (domain, N, requested world size): a run with ``--world-size`` (one fixed
world for every N, to show what grows with N beyond the world) adds rows beside the default
world's.

Results: ``benchmarks/results/generate/results.md`` (and ``results.json``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import tempfile
import time
from pathlib import Path

from fresh_process import child_row

RESULTS = Path(__file__).parent / "results" / "generate"
DOMAINS = ("telecom", "airline", "retail", "banking_knowledge")


def child(domain: str, tasks: int, seed: int, audit: int, world_size: int | None) -> None:
    """Generate one set into a temporary folder; print the timings as JSON."""
    from tau_env.generation.pipeline import generate_task_set
    from tau_env.generation.request import adapter_for, checked_request

    # The generator's own time (its `draw`), apart from the pipeline's share of the drawing
    # stage (deduplication, difficulty, selection, rendering and writing).
    adapter = adapter_for(domain)
    drawing = adapter.draw
    generator_seconds = generator_cpu = 0.0

    def timed_draw(*arguments: object) -> object:
        nonlocal generator_seconds, generator_cpu
        begun, begun_cpu = time.perf_counter(), time.process_time()
        try:
            return drawing(*arguments)  # type: ignore[arg-type]
        finally:
            generator_seconds += time.perf_counter() - begun
            generator_cpu += time.process_time() - begun_cpu

    object.__setattr__(adapter, "draw", timed_draw)
    marks: list[tuple[str, float, float, float]] = []
    start, start_cpu = time.perf_counter(), time.process_time()
    out = Path(tempfile.mkdtemp(prefix="bench-generate-"))
    try:
        request = checked_request(domain, seed, tasks, world_size=world_size, audit_sample=audit)
        generated = generate_task_set(
            request,
            out,
            progress=lambda line: marks.append(
                (line, time.perf_counter(), time.process_time(), _peak_rss_mb())
            ),
        )
        end, end_cpu = time.perf_counter(), time.process_time()
        size = sum(p.stat().st_size for p in generated.folder.rglob("*") if p.is_file())
    finally:
        shutil.rmtree(out, ignore_errors=True)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    at = {line.split()[0]: moment for line, moment, _, _ in marks}
    cpu_at = {line.split()[0]: moment for line, _, moment, _ in marks}
    peak_at = {line.split()[0]: peak for line, _, _, peak in marks}
    verify_end = at.get("auditing", end)
    verify_end_cpu = cpu_at.get("auditing", end_cpu)
    print(
        json.dumps(
            {
                "domain": domain,
                "tasks": tasks,
                "requested_world_size": world_size,
                "world_size": generated.manifest["world_size"],
                "seconds": end - start,
                "draw_seconds": at["verifying"] - start,
                "generator_seconds": generator_seconds,
                # the same stages in this process's CPU time (what other jobs do not inflate)
                "draw_cpu": cpu_at["verifying"] - start_cpu,
                "generator_cpu": generator_cpu,
                "verify_cpu": verify_end_cpu - cpu_at["verifying"],
                "verify_seconds": verify_end - at["verifying"],
                "audit_seconds": end - at["auditing"] if "auditing" in at else 0.0,
                "cpu_seconds": usage.ru_utime + usage.ru_stime,
                "peak_rss_mb": usage.ru_maxrss / 1024,
                # the peak up to the "verifying" line: the drawing stage's (with the world)
                "draw_peak_rss_mb": peak_at["verifying"],
                "bytes": size,
                "duplicates_removed": generated.manifest["duplicates_removed"],
                "candidates": generated.manifest["candidates_drawn"],
                "content_hash": generated.manifest["content_hash"][:16],
            }
        )
    )


def _peak_rss_mb() -> float:
    """This process's peak resident memory so far, in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _world_sizes(text: str, domains: list[str]) -> dict[str, int]:
    """``--world-size``: one size for every domain (``47059``), or per domain
    (``airline=58596,retail=36000``; a domain not named: the default world, 0)."""
    if "=" not in text:
        return {domain: int(text) for domain in domains}
    sizes = dict(part.split("=") for part in text.split(","))
    return {domain: int(sizes.get(domain, 0)) for domain in domains}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--domains", default=",".join(DOMAINS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--audit-sample", type=int, default=0)
    parser.add_argument(
        "--world-size",
        default="0",
        help="fixed world (0: default), or per domain: airline=58596,retail=36000",
    )
    parser.add_argument("--child", nargs=5, metavar=("DOMAIN", "N", "SEED", "AUDIT", "WORLD"))
    args = parser.parse_args()
    if args.child:
        domain, tasks, seed, audit, world = args.child
        child(domain, int(tasks), int(seed), int(audit), int(world) or None)
        return 0
    rows = []
    domains = args.domains.split(",")
    world_sizes = _world_sizes(args.world_size, domains)
    for size in (int(s) for s in args.sizes.split(",")):
        for domain in domains:
            world = str(world_sizes[domain])
            row = child_row(
                __file__, [domain, str(size), str(args.seed), str(args.audit_sample), world]
            )
            if row is None:
                continue
            row["tasks_per_second"] = row["tasks"] / row["seconds"]
            row["tasks_per_cpu_second"] = row["tasks"] / row["cpu_seconds"]
            rows.append(row)
            print(
                f"{domain:18} N={size:>6} world {row['world_size']}: {row['seconds']:7.1f} s "
                f"(draw {row['draw_seconds']:.1f}, verify {row['verify_seconds']:.1f}, "
                f"audit {row['audit_seconds']:.1f}), {row['tasks_per_second']:6.0f} tasks/s, "
                f"{row['tasks_per_cpu_second']:6.0f} tasks/CPU-s, "
                f"peak {row['peak_rss_mb']:.0f} MB (drawing {row['draw_peak_rss_mb']:.0f}), "
                f"{row['bytes'] / 1e6:.1f} MB written",
                flush=True,
            )
    RESULTS.mkdir(parents=True, exist_ok=True)
    meta = {
        "date": time.strftime("%Y-%m-%d"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        "python": platform.python_version(),
        "load_average": os.getloadavg(),
        "seed": args.seed,
        "audit_sample": args.audit_sample,
    }
    path = RESULTS / "results.json"
    if path.exists():  # rows of other (domain, N) pairs measured earlier are kept
        measured = {_key(r) for r in rows}
        earlier = json.loads(path.read_text())["rows"]
        rows = [r for r in earlier if _key(r) not in measured] + rows
        rows.sort(key=lambda r: (r.get("requested_world_size") or 0, r["tasks"], _order(r)))
    path.write_text(json.dumps({"meta": meta, "rows": rows}, indent=1) + "\n")
    print(table(rows))
    return 0


def _key(row: dict) -> tuple[str, int, int]:
    return row["domain"], row["tasks"], row.get("requested_world_size") or 0


def _order(row: dict) -> int:
    return DOMAINS.index(row["domain"])


def table(rows: list[dict]) -> str:
    """The rows as a Markdown table (for ``results/generate/results.md``).

    The stages are in CPU seconds of the process (the per-core figures); rows measured
    before those were recorded show the stages' wall seconds, marked "wall".
    """
    lines = [
        "| domain | N | world | wall s | CPU s | draw CPU-s (generator + pipeline) "
        "| verify CPU-s | verify ms/task | tasks/CPU-s | peak RSS MB (drawing) | MB written "
        "| duplicates removed |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['domain']} | {r['tasks']:,} | {_world(r)} | {r['seconds']:.1f} "
            f"| {r['cpu_seconds']:.1f} | {_draw(r)} | {_verify(r)} "
            f"| {_verify_per_task(r)} | {r['tasks'] / r['cpu_seconds']:.0f} "
            f"| {_peak(r)} | {r['bytes'] / 1e6:.1f} | {r['duplicates_removed']} |"
        )
    return "\n".join(lines)


def _peak(row: dict) -> str:
    """The process's peak RSS, and the drawing stage's when it was recorded."""
    if "draw_peak_rss_mb" not in row:
        return f"{row['peak_rss_mb']:.0f}"
    return f"{row['peak_rss_mb']:.0f} ({row['draw_peak_rss_mb']:.0f})"


def _draw(row: dict) -> str:
    """The drawing stage's CPU seconds, split into the generator's and the pipeline's."""
    if "draw_cpu" not in row:
        return f"{row['draw_seconds']:.1f} wall"
    own = row["draw_cpu"] - row["generator_cpu"]
    return f"{row['draw_cpu']:.1f} ({row['generator_cpu']:.1f} + {own:.1f})"


def _verify(row: dict) -> str:
    if "verify_cpu" not in row:
        return f"{row['verify_seconds']:.1f} wall"
    return f"{row['verify_cpu']:.1f}"


def _verify_per_task(row: dict) -> str:
    if "verify_cpu" not in row:
        return "?"
    return f"{row['verify_cpu'] * 1000 / row['tasks']:.2f}"


def _world(row: dict) -> str:
    """The world's customers, "(fixed)" when ``--world-size`` set it."""
    size = row.get("world_size")
    if size is None:
        return "?"
    return f"{size:,}" + (" (fixed)" if row.get("requested_world_size") else "")


if __name__ == "__main__":
    raise SystemExit(main())
