"""The shortcut audit of a generated set, on a sample of its tasks, for the manifest.

`tau_env.audit.audit` plays each task with every probe (refuse, transfer at once, agree and
end, read everything, random agents...) and the scripted user: a probe that passes more than
5% of a set shows tasks that reward no work. Playing every probe on every task of a large set
costs about 70 ms a task, so the pipeline audits an evenly spaced sample (``--audit-sample``,
default 100 tasks) and records each probe's pass rate in the manifest.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["PROBE_LIMIT", "audit_sample"]

PROBE_LIMIT = 0.05
"""The largest share of tasks a probe may pass (issue 53's rule)."""


def _evenly(task_ids: Sequence[str], size: int) -> list[str]:
    """`size` ids spread evenly over `task_ids` (all of them when there are fewer)."""
    if size >= len(task_ids):
        return list(task_ids)
    return [task_ids[(i * len(task_ids)) // size] for i in range(size)]


def audit_sample(
    domain: str, data_dir: Path, task_ids: Sequence[str], size: int, retrieval: str | None
) -> dict[str, Any]:
    """Audit `size` of the tasks; the manifest's ``audit`` entry.

    Returns:
        ``tasks`` (how many were audited), ``probes`` (each probe's pass rate),
        ``max_probe_rate``, ``limit``, ``within_limit`` and ``passed_by_probes`` (task id ->
        the probes that pass it).
    """
    from tau_env.audit import audit

    sample = _evenly(task_ids, size)
    report = audit(domain, data_dir=data_dir, task_ids=sample, retrieval=retrieval).summary()
    rates = {
        player: entry["rate"]
        for player, entry in report["official"]["rates"].items()
        if player != "oracle"
    }
    top = max((rate for rate in rates.values() if rate is not None), default=0.0)
    return {
        "tasks": len(sample),
        "probes": rates,
        "max_probe_rate": top,
        "limit": PROBE_LIMIT,
        "within_limit": top <= PROBE_LIMIT,
        "passed_by_probes": report["official"]["passed_by_probes"],
    }
