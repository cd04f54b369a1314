"""What the shortcut audit of one generated task costs, and where (`tau_env.audit`).

Usage: ``python benchmarks/audit_cost.py [--tasks 300] [--seed 1] [--domains a,b]
[--no-profile] [--out DIR]``. For each domain, generates a set (``tau-env generate
--audit-sample 0``) in a temporary folder, audits every task as ``tau-env audit --data-dir
DIR --domain D`` does (the domain's default retrieval, one seed, every probe and the oracle,
the scripted user), and reports the CPU milliseconds per task (`time.process_time`, loading
the set included), then audits it again under cProfile and reports the share of the
profiled time spent in each part of an episode (the scripted user, the probes, grading, the
tools, building the participants, resetting the env) and the functions with the most time
of their own. ``--out`` writes ``audit_cost.md`` and ``audit_cost.json`` there.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import platform
import pstats
import tempfile
import time
from pathlib import Path
from typing import Any

from fresh_process import write_report

from tau_env.audit import audit
from tau_env.generation.pipeline import generate_task_set
from tau_env.generation.request import ADAPTERS, checked_request

PARTS = {
    "scripted user": ("wrappers/users/scripted.py", "act"),
    "probes (agent side)": ("baselines/shortcut_probes.py", "act"),
    "grading": ("tau_env/grading/grader.py", "grade"),
    "tool calls": ("tau_env/state/world.py", "call_tool"),
    "building participants": ("tau_env/participant.py", "build_participant"),
    "env reset": ("tau_env/env/aec.py", "reset"),
}
"""Parts of an episode, each the cumulative time of one function (they may overlap a little:
grading runs inside the env's last step)."""


def _generated(domain: str, tasks: int, seed: int, out: Path) -> None:
    request = checked_request(domain, seed, tasks, audit_sample=0)
    generate_task_set(request, out, force=True)


def measure(domain: str, data_dir: Path, top: int = 12, profiled: bool = True) -> dict[str, Any]:
    """Audit the set twice (timed, then profiled); the figures of one domain."""
    started = time.process_time()
    report = audit(domain, data_dir=data_dir)
    seconds = time.process_time() - started
    row = {
        "domain": domain,
        "tasks": len(report.tasks),
        "players": len(report.players),
        "cpu_seconds": round(seconds, 2),
        "ms_per_task": round(1000 * seconds / len(report.tasks), 1),
        "best_probe_rate": max(r.rate or 0.0 for r in report.rates() if r.player != "oracle"),
    }
    if not profiled:
        return row
    profile = cProfile.Profile()
    profile.enable()
    audit(domain, data_dir=data_dir)
    profile.disable()
    stats = pstats.Stats(profile)
    entries = stats.stats  # type: ignore[attr-defined]
    total = max(ct for (_, _, _), (_, _, _, ct, _) in entries.items() if ct)
    parts = {}
    for part, (path, function) in PARTS.items():
        parts[part] = round(
            sum(
                ct
                for (file, _, name), (_, _, _, ct, _) in entries.items()
                if file.endswith(path) and name == function
            )
            / total,
            3,
        )
    own = sorted(entries.items(), key=lambda item: -item[1][2])[:top]
    return {
        **row,
        "parts": parts,
        "own_time": [
            {
                "function": f"{Path(file).name}:{line}({name})",
                "share": round(tt / total, 3),
                "calls": nc,
            }
            for (file, line, name), (_, nc, tt, _, _) in own
        ],
    }


def table(rows: list[dict[str, Any]]) -> str:
    """The rows as markdown: the cost per task, then the parts and functions per domain."""
    lines = [
        "| domain | tasks | CPU s | ms per task | " + " | ".join(PARTS) + " | best probe |",
        "|---|---|---|---|" + "---|" * len(PARTS) + "---|",
    ]
    for row in rows:
        shares = " | ".join(
            f"{row['parts'][part]:.0%}" if "parts" in row else "-" for part in PARTS
        )
        lines.append(
            f"| {row['domain']} | {row['tasks']} | {row['cpu_seconds']:.1f} | "
            f"{row['ms_per_task']:.1f} | {shares} | {row['best_probe_rate']:.3f} |"
        )
    for row in rows:
        if "own_time" not in row:
            continue
        lines += ["", f"{row['domain']}: most time of their own (share of the profiled audit)", ""]
        lines += [
            f"- {entry['function']}: {entry['share']:.1%} ({entry['calls']:,} calls)"
            for entry in row["own_time"]
        ]
    return "\n".join(lines)


def main() -> None:
    """Generate, audit and profile each domain's set; print (and write) the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--domains", default=",".join(ADAPTERS))
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--no-profile", action="store_true", help="the timed audit only")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for domain in args.domains.split(","):
            _generated(domain, args.tasks, args.seed, Path(folder))
            rows.append(measure(domain, Path(folder), profiled=not args.no_profile))
            print(json.dumps(rows[-1]), flush=True)
    text = table(rows)
    summary = (
        f"{args.tasks} tasks per domain (seed {args.seed}), Python "
        f"{platform.python_version()} on {platform.machine()}, load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    write_report(args.out, "audit_cost.md", text, summary, "audit_cost.json", rows)


if __name__ == "__main__":
    main()
