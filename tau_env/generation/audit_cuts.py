"""``--require-audit``: regenerate a set a shortcut probe passes too often, by family shares.

When a probe passes more than 5% of a generated set, the families whose tasks it passes are
cut: their share of the set shrinks and tasks of other families (drawn among the candidates
the generator drew, the cleanest families first, each growing in proportion to its share)
take their place, until every probe's estimated rate over the set (each family's measured
rate times its new share) is within the limit (`plan_cuts`). The pipeline then selects the
set again with these counts (`by_quota`), verifies and audits it again; the manifest records
which families were cut and by how much (`cut_record`). When no such counts exist (a probe
passes every family, or too few candidates of the clean families), the set is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from tau_env.generation.select import proportional

__all__ = ["audit_rates", "by_quota", "cut_record", "plan_cuts"]

T = TypeVar("T")

_EPSILON = 1e-9


def audit_rates(audited: Mapping[str, Any]) -> dict[str, dict[str, float]]:
    """Family -> probe -> rate, from the manifest's ``audit`` entry (not judged: 0)."""
    return {
        family: {probe: rate or 0.0 for probe, rate in entry["probes"].items()}
        for family, entry in audited["families"].items()
    }


def plan_cuts(
    counts: Mapping[str, int],
    available: Mapping[str, int],
    rates: Mapping[str, Mapping[str, float]],
    limit: float,
) -> dict[str, int] | None:
    """New tasks per family, same total, every probe's estimated rate within `limit`.

    One task at a time moves from the family the worst probe passes most to the family with
    spare candidates that probes pass least (among equals, the one that has grown least for
    its size), as long as that lowers the worst probe's rate.

    Args:
        counts: Tasks per family in the set now.
        available: Distinct candidates per family (the most a family can hold).
        rates: Family -> probe -> the share of its audited tasks the probe passes.
        limit: The largest rate a probe may have over the set.

    Returns:
        The new counts (`counts` itself when every probe is within `limit`), or None when
        moving tasks cannot bring every probe within it.
    """
    total = sum(counts.values())
    if total == 0:
        return dict(counts)
    quota = dict(counts)
    probes = sorted({probe for by_probe in rates.values() for probe in by_probe})
    rate = {f: {p: rates.get(f, {}).get(p, 0.0) for p in probes} for f in quota}
    load = {p: sum(quota[f] * rate[f][p] for f in quota) for p in probes}
    worst_rate = {f: max(rate[f].values(), default=0.0) for f in quota}
    budget = limit * total + _EPSILON
    for _ in range(total * max(len(quota), 1)):
        over = [p for p in probes if load[p] > budget]
        if not over:
            return quota
        probe = max(over, key=lambda p: (load[p], p))
        donors = [f for f in quota if quota[f] > 0 and rate[f][probe] > 0]
        donor = max(donors, key=lambda f: (rate[f][probe], f))
        receivers = [
            f
            for f in quota
            if quota[f] < available.get(f, 0) and rate[f][probe] < rate[donor][probe]
        ]
        if not receivers:
            return None
        receiver = min(
            receivers, key=lambda f: (worst_rate[f], quota[f] / max(counts.get(f, 0), 1), f)
        )
        quota[donor] -= 1
        quota[receiver] += 1
        for p in probes:
            load[p] += rate[receiver][p] - rate[donor][p]
    return None


def by_quota(
    candidates: Sequence[T],
    quota: Mapping[str, int],
    family_of: Callable[[T], str],
    split_of: Callable[[T], str],
) -> list[T]:
    """Exactly ``quota[family]`` candidates of each family, in draw order.

    Within a family, each of its splits keeps its share (`proportional`), as the pipeline's
    own selection keeps it; selecting the set's size among the result keeps all of it.
    """
    members: dict[str, list[T]] = {}
    for task in candidates:
        members.setdefault(family_of(task), []).append(task)
    kept: set[int] = set()
    for family, tasks in members.items():
        wanted = quota.get(family, 0)
        chosen = proportional(tasks, wanted, split_of)
        kept.update(id(task) for task in chosen)
    return [task for task in candidates if id(task) in kept]


def cut_record(before: Mapping[str, int], after: Mapping[str, int]) -> dict[str, Any]:
    """The manifest's record of a regeneration: the families cut and grown, from -> to."""
    changed = {
        family: {"from": before.get(family, 0), "to": after.get(family, 0)}
        for family in sorted(set(before) | set(after))
        if before.get(family, 0) != after.get(family, 0)
    }
    return {
        "cut": {f: c for f, c in changed.items() if c["to"] < c["from"]},
        "grown": {f: c for f, c in changed.items() if c["to"] > c["from"]},
    }
