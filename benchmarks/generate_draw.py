"""The generators' drawing alone: CPU time per task of each domain's draw, by set size.

``tau-env generate`` first asks the domain's generator for about 1.25 N candidates
(`tau_env.generation.pipeline.OVERSHOOTS`); this times that one call
(``adapter_for(domain).draw``: the world, the candidate tasks, their own checks and their
JSON form), without the pipeline's deduplication, selection, writing or gold replay
(``benchmarks/generate.py`` times the whole). Each (domain, N) runs in a fresh process, so a
draw never finds another's objects in memory; the figure is the process's CPU time for the
call, which other jobs on the machine inflate less than the wall time.

    python benchmarks/generate_draw.py                          # N = 1,000, 10,000, 50,000
    python benchmarks/generate_draw.py --sizes 10000 --domains retail

Prints a Markdown table (for ``benchmarks/results/generate/results.md``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time

from fresh_process import child_row

DOMAINS = ("telecom", "airline", "retail")


def child(domain: str, tasks: int, seed: int) -> None:
    """Draw once; print the CPU seconds and the number of candidates as JSON."""
    from tau_env.generation.pipeline import OVERSHOOTS
    from tau_env.generation.request import adapter_for, checked_request

    adapter = adapter_for(domain)
    request = checked_request(domain, seed, tasks)
    candidates = []

    def take(task: dict, distractors: int | None) -> None:  # counted, not kept
        candidates.append(task["id"])

    start = time.process_time()
    adapter.draw(request, adapter.families, math.ceil(tasks * OVERSHOOTS[0]) + 4, take)
    cpu = time.process_time() - start
    print(json.dumps({"cpu_seconds": cpu, "candidates": len(candidates)}))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,50000")
    parser.add_argument("--domains", default=",".join(DOMAINS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", nargs=3, metavar=("DOMAIN", "N", "SEED"))
    args = parser.parse_args()
    if args.child:
        domain, tasks, seed = args.child
        child(domain, int(tasks), int(seed))
        return 0
    lines = [
        "| domain | N | candidates | draw CPU s | ms per task of N |",
        "|---|---|---|---|---|",
    ]
    for domain in args.domains.split(","):
        for size in (int(s) for s in args.sizes.split(",")):
            row = child_row(__file__, [domain, str(size), str(args.seed)])
            if row is None:
                continue
            cpu = row["cpu_seconds"]
            lines.append(
                f"| {domain} | {size:,} | {row['candidates']:,} | {cpu:.2f} "
                f"| {cpu * 1000 / size:.3f} |"
            )
            print(lines[-1], flush=True)
    print(f"\nload average {os.getloadavg()[0]:.1f}")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
