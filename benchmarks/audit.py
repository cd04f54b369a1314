"""Auditing every task set: CPU time on one core, and the figures (`tau_env.audit`).

Usage: ``python benchmarks/audit.py [--data-dir DIR] [--full-telecom] [--seeds 0,1]
[--grading strict] [--out DIR]``. Audits the built-in data of every domain and, with the
official data (``--data-dir``, else ``TAU2_DATA_DIR``, else ``../shared/tau2-data``), its
default split of every domain, one after the other in this process (one core). Prints a table
per set: tasks, episodes (tasks x players x seeds), CPU seconds including loading the data,
and each player's pass rate (a probe passes a task under some seed, the oracle under every
one); then the total. ``--full-telecom`` adds the official telecom ``full`` split (2,285
tasks). ``--grading strict`` adds each player's rate under the strict reading. ``--out``
writes ``table.md`` and ``summary.json`` there. Issue 45's target: the whole official and
built-in data of every domain in under a minute of CPU (one seed, its 8 players); issue 53's
rule: on every built-in set, every probe at most 0.05 (seeds 0 and 1), the oracle 1.000.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path
from typing import Any

from fresh_process import write_report

from tau_env.audit import ORACLE, ORACLE_LABEL, audit
from tau_env.baselines.probes import PROBE_NAMES
from tau_env.domain import registered_domains

DOMAINS = ("airline", "retail", "banking_knowledge", "telecom", "telecom-workflow", "mock")


def _data_dir(given: str | None) -> Path | None:
    for candidate in (given, os.environ.get("TAU2_DATA_DIR"), "../shared/tau2-data"):
        if candidate and (Path(candidate) / "domains").is_dir():
            return Path(candidate).resolve()
    return None


def _sets(data_dir: Path | None, full_telecom: bool) -> list[tuple[str, Path | None, str | None]]:
    sets: list[tuple[str, Path | None, str | None]] = [(d, None, None) for d in DOMAINS]
    if data_dir is not None:
        sets += [(d, data_dir, None) for d in DOMAINS]
        if full_telecom:
            sets.append(("telecom", data_dir, "full"))
    return [s for s in sets if s[0] in registered_domains()]


def measure(
    domain: str,
    data_dir: Path | None,
    split: str | None,
    seeds: tuple[int, ...] = (0,),
    grading: str = "official",
) -> dict[str, Any]:
    """Audit one set; CPU seconds include loading its data (first use in this process)."""
    started = time.process_time()
    report = audit(
        domain,
        data_dir=data_dir,
        split=split,
        seeds=seeds,
        grading="strict" if grading == "strict" else "official",
    )
    seconds = time.process_time() - started
    row = {
        "domain": domain,
        "data": "official" if data_dir is not None else "built-in",
        "split": split or "default",
        "tasks": len(report.tasks),
        "episodes": len(report.tasks) * len(report.players) * len(seeds),
        "cpu_seconds": round(seconds, 2),
        "rates": _rates(report.rates()),
        "passed_by_probes": report.passed_by_probes(),
        "only_oracle": len(report.only_oracle()),
    }
    if grading == "strict":
        row["strict_rates"] = _rates(report.rates(strict=True))
    return row


def _rates(rates: list[Any]) -> dict[str, dict[str, Any]]:
    return {r.player: {"rate": r.rate, "passed": r.passed, "judged": r.judged} for r in rates}


def table(rows: list[dict[str, Any]], key: str = "rates") -> str:
    """The rows as a markdown table (rates with 3 decimals; not-judged tasks left out).

    `key`: ``rates`` (official grading) or ``strict_rates`` (the strict reading).
    """
    players = [*PROBE_NAMES, ORACLE]
    head = ["set", "tasks", "CPU s", *[ORACLE_LABEL if p == ORACLE else p for p in players]]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        if key not in row:
            continue
        cells = [f"{row['data']} {row['domain']} ({row['split']})", str(row["tasks"])]
        cells.append(f"{row['cpu_seconds']:.1f}")
        for player in players:
            rate = row[key][player]
            value = "n/a" if rate["rate"] is None else f"{rate['rate']:.3f}"
            if rate["judged"] < row["tasks"]:
                value += f" (of {rate['judged']})"
            cells.append(value)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    """Audit every set, print the table and the total CPU time."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--full-telecom", action="store_true")
    parser.add_argument("--seeds", default="0,1")
    parser.add_argument("--grading", choices=("official", "strict"), default="official")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    seeds = tuple(int(seed) for seed in args.seeds.split(","))
    started = time.process_time()
    rows = [
        measure(*spec, seeds=seeds, grading=args.grading)
        for spec in _sets(_data_dir(args.data_dir), args.full_telecom)
    ]
    total = time.process_time() - started
    text = table(rows)
    if args.grading == "strict":
        text += "\n\nStrict reading:\n\n" + table(rows, "strict_rates")
    episodes = sum(row["episodes"] for row in rows)
    summary = (
        f"total: {len(rows)} sets, {sum(row['tasks'] for row in rows)} tasks, {episodes} "
        f"episodes (seeds {args.seeds}) in {total:.1f} CPU s "
        f"({episodes / total:.0f} episodes per CPU second), "
        f"Python {platform.python_version()} on {platform.machine()}, load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    payload = {"total_cpu_seconds": round(total, 2), "sets": rows}
    write_report(args.out, "table.md", text, summary, "summary.json", payload)


if __name__ == "__main__":
    main()
