"""``--require-audit``: a set whose audit fails is selected again with other family shares.

The pipeline (`tau_env.generation.pipeline`) calls `require_audit` after auditing a set.
Within the limit, the set is kept (and, if it was regenerated, its audit records which
families were cut and grown). Above it, `tau_env.generation.audit_cuts.plan_cuts` finds
family counts that bring every probe's estimated rate within 5%, and `Regenerate` carries
them back to `regenerating`, which runs the pipeline again with them (the same draw, so the
same candidates; the set is selected, verified and audited anew). When no counts do, or the
set still fails after `MAX_ROUNDS`, the set is refused (`AuditRefused`: one line, nothing
written).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn, TypeVar

from tau_env.errors import InvalidOption
from tau_env.generation.audit_cuts import audit_rates, by_quota, cut_record, plan_cuts

__all__ = ["MAX_ROUNDS", "AuditRefused", "Quota", "Regenerate", "regenerating", "require_audit"]

MAX_ROUNDS = 3
"""Selections tried after the first before a set that still fails is refused."""

T = TypeVar("T")
C = TypeVar("C")


class AuditRefused(InvalidOption):
    """``--require-audit``: a probe passes more than 5% and cutting families cannot help."""


@dataclass(frozen=True)
class Quota:
    """Tasks per family for a set selected again, and how it came to be.

    Attributes:
        counts: Family -> tasks.
        first: Tasks per family of the set as first selected.
        rounds: Selections made after the first (1 for the first regeneration).
        history: Per round, the best probe's rate that made it cut (for the manifest).
    """

    counts: dict[str, int]
    first: dict[str, int]
    rounds: int
    history: list[dict[str, Any]] = field(default_factory=list)

    def select(
        self, candidates: Sequence[C], family_of: Callable[[C], str], split_of: Callable[[C], str]
    ) -> list[C]:
        """The candidates of the new set: exactly `counts` of each family (`by_quota`)."""
        return by_quota(candidates, self.counts, family_of, split_of)

    def record(self) -> dict[str, Any]:
        """The manifest's ``audit.regenerated`` entry."""
        return {
            "rounds": self.rounds,
            "audits": self.history,
            **cut_record(self.first, self.counts),
        }


class Regenerate(Exception):
    """The set is to be selected again with `quota` (raised by `require_audit`)."""

    def __init__(self, quota: Quota) -> None:
        super().__init__(f"regenerate with {quota.counts}")
        self.quota = quota


def regenerating(
    generate: Callable[[Quota | None], T], say: Callable[[str], None] | None = None
) -> T:
    """``generate(None)``, then ``generate(quota)`` for as long as it asks for another one."""
    quota: Quota | None = None
    while True:
        try:
            return generate(quota)
        except Regenerate as again:
            quota = again.quota
            if say is not None:
                cut = cut_record(quota.first, quota.counts)["cut"]
                names = ", ".join(f"{f} {c['from']} -> {c['to']}" for f, c in cut.items())
                say(f"a shortcut probe passes more than 5%: selecting again, cutting {names}")


def require_audit(
    audited: dict[str, Any],
    counts: Mapping[str, int],
    available: Mapping[str, int],
    quota: Quota | None,
) -> None:
    """Keep a set within the limit (noting its regeneration in `audited`), else regenerate.

    Args:
        audited: The manifest's ``audit`` entry (`tau_env.generation.audit_sample`).
        counts: Family -> the set's tasks of it.
        available: Family -> the candidates the draw gave of it (what a family can grow into).
        quota: The counts this set was selected with (None: the first selection).

    Raises:
        Regenerate: With the counts to select the set again with.
        AuditRefused: No counts bring every probe within the limit, or `MAX_ROUNDS` tried.
    """
    counts = dict(counts)
    if audited["within_limit"]:
        if quota is not None:
            audited["regenerated"] = quota.record()
        return
    best = max(audited["probes"], key=lambda name: (audited["probes"][name] or 0.0, name))
    step = {"probe": best, "rate": audited["max_probe_rate"], "audited": audited["tasks"]}
    rounds = 0 if quota is None else quota.rounds
    if rounds >= MAX_ROUNDS:
        _refuse(audited, best, f"and still does after {rounds} selections with families cut")
    planned = plan_cuts(counts, dict(available), audit_rates(audited), audited["limit"])
    if planned is None or planned == counts:
        _refuse(
            audited,
            best,
            "and cutting those families cannot bring it within the limit with the candidates "
            "drawn (too few of the families it does not pass)",
        )
    first = counts if quota is None else quota.first
    history = [] if quota is None else quota.history
    raise Regenerate(Quota(planned, first, rounds + 1, [*history, step]))


def _refuse(audited: Mapping[str, Any], probe: str, why: str) -> NoReturn:
    """Raise `AuditRefused`: the probe, its rate, the families it passes and why."""
    passed = sorted(
        (
            (entry["probes"].get(probe) or 0.0, family)
            for family, entry in audited["families"].items()
            if entry["probes"].get(probe)
        ),
        reverse=True,
    )
    names = ", ".join(f"{family} ({rate:.0%} of its tasks)" for rate, family in passed)
    raise AuditRefused(
        f"the probe {probe!r} passes {audited['max_probe_rate']:.1%} of the set "
        f"({audited['tasks']} tasks audited), above {audited['limit']:.0%}: it passes tasks "
        f"of {names}, {why}; leave those families out (--families) or drop --require-audit; "
        "nothing was written"
    )
