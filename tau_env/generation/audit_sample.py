"""The shortcut audit of a generated set, family by family, for the manifest.

`tau_env.audit.audit` plays each task with every probe (refuse, transfer at once, agree and
end, read everything, random agents...) and the scripted user: a probe that passes more than
5% of a set shows tasks that reward no work. A shortcut usually lives in one family (retail's
``transfer`` tasks pass a probe that verifies and hands over), so the sample is stratified:
every family gets ``min(its size, K)`` of its tasks, evenly spaced (``--audit-sample K``;
``all``: every task). Each probe's rate is measured per family, and its rate over the set is
the families' rates weighted by their share of the set (with every task audited: exactly the
share of the set's tasks it passes).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["ALL_TASKS", "PROBE_LIMIT", "audit_sample", "stratified"]

PROBE_LIMIT = 0.05
"""The largest share of tasks a probe may pass (issue 53's rule)."""

ALL_TASKS = 1_000_000
"""``--audit-sample all``: more tasks per family than any set holds."""


def _evenly(task_ids: Sequence[str], size: int) -> list[str]:
    """`size` ids spread evenly over `task_ids` (all of them when there are fewer)."""
    if size >= len(task_ids):
        return list(task_ids)
    return [task_ids[(i * len(task_ids)) // size] for i in range(size)]


def stratified(task_ids: Sequence[str], family: Mapping[str, str], per_family: int) -> list[str]:
    """``min(size, per_family)`` tasks of every family, evenly spaced, in `task_ids` order."""
    members: dict[str, list[str]] = {}
    for task_id in task_ids:
        members.setdefault(family[task_id], []).append(task_id)
    chosen = {task_id for ids in members.values() for task_id in _evenly(ids, per_family)}
    return [task_id for task_id in task_ids if task_id in chosen]


def audit_sample(
    domain: str,
    data_dir: Path,
    task_ids: Sequence[str],
    family: Mapping[str, str],
    per_family: int,
    retrieval: str | None,
) -> dict[str, Any]:
    """Audit a family-stratified sample of the set; the manifest's ``audit`` entry.

    Args:
        domain: The domain.
        data_dir: The data folder holding the set.
        task_ids: Every task of the set.
        family: Each task's family.
        per_family: Tasks audited per family at most (`ALL_TASKS`: every task).
        retrieval: The retrieval variant the set is played with.

    Returns:
        ``tasks`` (how many were audited), ``per_family`` (K, or ``"all"``), ``probes``
        (each probe's rate over the set), ``max_probe_rate``, ``limit``, ``within_limit``,
        ``families`` (per family: its ``tasks``, how many were ``audited``, and each probe's
        rate among them) and ``passed_by_probes`` (task id -> the probes that pass it).
    """
    from tau_env.audit import audit

    sample = stratified(task_ids, family, per_family)
    report = audit(domain, data_dir=data_dir, task_ids=sample, retrieval=retrieval)
    probes = report.probes
    size = Counter(family[task_id] for task_id in task_ids)
    passed: dict[str, dict[str, int]] = {name: dict.fromkeys(probes, 0) for name in size}
    judged: dict[str, dict[str, int]] = {name: dict.fromkeys(probes, 0) for name in size}
    audited = dict.fromkeys(size, 0)
    for task in report.tasks:
        name = family[task.task_id]
        audited[name] += 1
        for probe in probes:
            outcome = task.passed.get(probe)
            judged[name][probe] += outcome is not None
            passed[name][probe] += outcome is True
    families = {
        name: {
            "tasks": size[name],
            "audited": audited[name],
            "probes": {
                probe: passed[name][probe] / judged[name][probe] if judged[name][probe] else None
                for probe in probes
            },
        }
        for name in sorted(size)
    }
    rates = {probe: _weighted(families, probe) for probe in probes}
    top = max((rate for rate in rates.values() if rate is not None), default=0.0)
    return {
        "tasks": len(sample),
        "per_family": "all" if per_family >= len(task_ids) else per_family,
        "probes": rates,
        "max_probe_rate": top,
        "limit": PROBE_LIMIT,
        "within_limit": top <= PROBE_LIMIT,
        "families": families,
        "passed_by_probes": report.passed_by_probes(),
    }


def _weighted(families: Mapping[str, Mapping[str, Any]], probe: str) -> float | None:
    """A probe's rate over the set: each family's rate weighted by its size.

    Families none of whose audited tasks could be judged are left out (None when none is left).
    """
    total = 0
    passed = 0.0
    for entry in families.values():
        rate = entry["probes"][probe]
        if rate is not None:
            total += entry["tasks"]
            passed += entry["tasks"] * rate
    return passed / total if total else None
