"""Run every benchmark and print a table: ``python benchmarks/run.py [--quick] [--markdown]``.

Measures import time, then each registered domain on built-in data and, when found
(``TAU2_DATA_DIR`` or ``../shared/tau2-data``), on the official data. Only public tools are
used: ``time.perf_counter`` and ``tracemalloc``.
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

from env_benchmarks import Source, benchmark_source
from harness import Stat, percentiles

from tau_env.domain import registered_domains

REPO = Path(__file__).resolve().parents[1]


def official_data_dir() -> Path | None:
    for candidate in (os.environ.get("TAU2_DATA_DIR"), str(REPO.parent / "shared" / "tau2-data")):
        if candidate and (Path(candidate) / "domains").is_dir():
            return Path(candidate)
    return None


def import_time(repeat: int) -> Stat:
    """Wall time of ``python -c 'import tau_env'`` minus that of ``python -c 'pass'``."""

    def run(code: str) -> float:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        return time.perf_counter() - start

    samples = [(run("import tau_env") - run("pass")) * 1e3 for _ in range(repeat)]
    median, p10, p90 = percentiles(samples)
    return Stat("import tau_env", "ms", median, p10, p90, repeat, 300.0)


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
        default=1000,
        help="episodes kept open for the memory benchmark",
    )
    args = parser.parse_args()
    repeat = 200 if args.quick else 2000
    stats = [import_time(3 if args.quick else 10)]
    domains = args.domains.split(",") if args.domains else registered_domains()
    data_dir = official_data_dir()
    for domain in domains:
        sources = [Source(domain, None)]
        if data_dir is not None and (data_dir / "domains" / domain).is_dir():
            sources.append(Source(domain, data_dir))
        for source in sources:
            stats += benchmark_source(source, repeat=repeat, open_episodes=args.open_episodes)
    print(
        f"# {time.strftime('%Y-%m-%d')} on {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}"
    )
    print(render(stats, args.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
