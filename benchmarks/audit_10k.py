"""The shortcut audit of generated sets of 10,000 tasks: every probe on every task.

Usage: ``python benchmarks/audit_10k.py --sets DIR [--domains a,b] [--tasks 10000]
[--seed 1] [--out DIR]``. For each domain, unless ``DIR`` holds it already, generates the set
(``tau-env generate --domain D --seed 1 --tasks 10000 --out DIR --audit-sample 0``), then
audits every task as ``tau-env audit --domain D --data-dir DIR --json`` does (a child
process; its CPU time is the child's user + system time) and keeps the JSON in
``DIR/audit_D.json`` (with ``DIR/audit_D.cpu``); an audit already there is only summarised.
The summary per domain: each probe's pass rate over the set, the best one with its exact 95%
upper confidence bound (Clopper-Pearson), the oracle's rate, the best probe's rate per family,
and the CPU minutes. ``--out`` writes ``audit_10k.md`` and ``audit_10k.json`` there.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

from fresh_process import write_report

from tau_env.domain import load_domain
from tau_env.generation.audit_sample import PROBE_LIMIT
from tau_env.generation.manifest import read_manifest
from tau_env.generation.request import ADAPTERS, adapter_for

ORACLE = "oracle"


def upper_bound(passed: int, total: int, confidence: float = 0.95) -> float:
    """The exact (Clopper-Pearson) one-sided upper bound of a binomial rate."""
    if total == 0:
        return 1.0
    if passed >= total:
        return 1.0
    alpha = 1 - confidence

    def tail(p: float) -> float:  # P(X <= passed) under rate p (terms in logs: no overflow)
        logs = [
            math.lgamma(total + 1)
            - math.lgamma(k + 1)
            - math.lgamma(total - k + 1)
            + k * math.log(p)
            + (total - k) * math.log1p(-p)
            for k in range(passed + 1)
        ]
        return sum(math.exp(value) for value in logs)

    low, high = max(passed / total, 1e-12), 1.0 - 1e-12
    for _ in range(60):
        middle = (low + high) / 2
        if tail(middle) > alpha:
            low = middle
        else:
            high = middle
    return high


def _cli(*arguments: str) -> list[str]:
    return [sys.executable, "-m", "tau_env.cli.main", *arguments]


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _ensure_set(domain: str, sets: Path, tasks: int, seed: int) -> None:
    if (sets / "domains" / domain / "manifest.json").exists():
        return
    options = ["--seed", str(seed), "--tasks", str(tasks), "--audit-sample", "0"]
    command = _cli("generate", "--domain", domain, *options, "--out", str(sets))
    subprocess.run(command, check=True, capture_output=True)


def _ensure_audit(domain: str, sets: Path) -> None:
    found = sets / f"audit_{domain}.json"
    if found.exists():
        return
    before = _child_cpu()
    command = _cli("audit", "--domain", domain, "--data-dir", str(sets), "--json")
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    (sets / f"audit_{domain}.cpu").write_text(f"{_child_cpu() - before:.2f}\n")
    found.write_text(done.stdout)


def summarise(domain: str, sets: Path) -> dict[str, Any]:
    """One domain's figures from its audit JSON, the set's manifest and its tasks."""
    report = json.loads((sets / f"audit_{domain}.json").read_text())
    rates = report["official"]["rates"]
    probes = [name for name in rates if name != ORACLE]
    best = max(probes, key=lambda name: (rates[name]["passed"], name))
    adapter = adapter_for(domain)
    loaded = load_domain(domain, sets)
    family = {t.id: adapter.family_of(t.model_dump(mode="json")) for t in loaded.tasks}
    sizes: dict[str, int] = {}
    for name in family.values():
        sizes[name] = sizes.get(name, 0) + 1
    passed: dict[str, dict[str, int]] = {name: {} for name in sizes}
    for task_id, passing in report["official"]["passed_by_probes"].items():
        for probe in passing:
            counts = passed[family[task_id]]
            counts[probe] = counts.get(probe, 0) + 1
    cpu_file = sets / f"audit_{domain}.cpu"
    cpu = float(cpu_file.read_text()) if cpu_file.exists() else None
    manifest = read_manifest(sets, domain) or {}
    best_rate = rates[best]["rate"] or 0.0
    return {
        "domain": domain,
        "tasks": len(report["tasks"]),
        "content_hash": str(manifest.get("content_hash", ""))[:16],
        "probes": {name: rates[name] for name in probes},
        "best_probe": best if rates[best]["passed"] else None,  # None: no probe passes any
        "best_probe_rate": best_rate,
        "best_probe_upper_95": upper_bound(rates[best]["passed"], rates[best]["judged"]),
        "oracle_rate": rates[ORACLE]["rate"],
        "within_limit": all((rates[name]["rate"] or 0.0) <= PROBE_LIMIT for name in probes),
        "families": {
            name: {
                "tasks": sizes[name],
                "best_probe": max(passed[name], key=lambda p: passed[name][p], default=None),
                "best_probe_rate": max(passed[name].values(), default=0) / sizes[name],
            }
            for name in sorted(sizes)
        },
        "cpu_seconds": cpu,
        "ms_per_task": round(1000 * cpu / len(report["tasks"]), 1) if cpu else None,
    }


def table(rows: list[dict[str, Any]]) -> str:
    """The figures as markdown: one row per domain, then the families probes pass."""
    lines = [
        "| domain | tasks | content hash | best probe | its rate | 95% upper bound | oracle | "
        "CPU min | ms per task |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        cpu = f"{row['cpu_seconds'] / 60:.1f}" if row["cpu_seconds"] else "n/a"
        lines.append(
            f"| {row['domain']} | {row['tasks']:,} | {row['content_hash']} | "
            f"{row['best_probe'] or 'none passes a task'} | {row['best_probe_rate']:.4f} | "
            f"{row['best_probe_upper_95']:.4f} | {row['oracle_rate']:.3f} | {cpu} | "
            f"{row['ms_per_task'] or 'n/a'} |"
        )
    lines += ["", "Families a probe passes (the best probe's share of the family's tasks):", ""]
    for row in rows:
        passed = {f: e for f, e in row["families"].items() if e["best_probe_rate"] > 0}
        named = ", ".join(
            f"{f} {e['best_probe_rate']:.1%} of {e['tasks']} ({e['best_probe']})"
            for f, e in sorted(passed.items(), key=lambda item: -item[1]["best_probe_rate"])
        )
        lines.append(f"- {row['domain']}: {named or 'none'}")
    return "\n".join(lines)


def main() -> None:
    """Generate and audit each domain's set (unless done), print and write the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=Path, required=True)
    parser.add_argument("--domains", default=",".join(ADAPTERS))
    parser.add_argument("--tasks", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    rows = []
    for domain in args.domains.split(","):
        _ensure_set(domain, args.sets, args.tasks, args.seed)
        _ensure_audit(domain, args.sets)
        rows.append(summarise(domain, args.sets))
    text = table(rows)
    summary = (
        f"Python {platform.python_version()} on {platform.machine()}, load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    write_report(args.out, "audit_10k.md", text, summary, "audit_10k.json", rows)


if __name__ == "__main__":
    main()
