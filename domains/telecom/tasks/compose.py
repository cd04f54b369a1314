"""Composing issues into task blueprints: one optional pick from each selection set."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cached_property

from tau_env.domains.telecom.tasks.intents import Intent
from tau_env.domains.telecom.tasks.issues import Issue

__all__ = ["Blueprint", "compose"]


@dataclass(frozen=True)
class Blueprint:
    """A set of compatible issues behind one intent, before any customer or persona is chosen.

    Attributes:
        intent: What the user calls about.
        issues: The issues, sorted by name (their fixes run in this order).
    """

    intent: Intent
    issues: tuple[Issue, ...]

    # (The three properties below are computed once: a large draw reads them 100,000s of times.)
    @cached_property
    def name(self) -> str:
        """The issue names joined by ``|`` (the middle part of a task id)."""
        return "|".join(issue.name for issue in self.issues)

    @cached_property
    def fixable(self) -> bool:
        """False when any issue needs a human agent (the task ends in a transfer)."""
        return all(issue.fixable for issue in self.issues)

    @cached_property
    def abroad(self) -> bool:
        """True when the user is travelling (a roaming issue is involved)."""
        return any(issue.abroad for issue in self.issues)


def compose(intent: Intent) -> list[Blueprint]:
    """Every blueprint of an intent, in product order.

    The product runs over each selection set's issues plus "none"; a choice is kept when the
    intent's rule accepts it.
    """
    options = [(*selection.issues, None) for selection in intent.selection_sets]
    blueprints = []
    for choice in itertools.product(*options):
        if not intent.counts(choice):
            continue
        chosen = sorted((issue for issue in choice if issue is not None), key=lambda i: i.name)
        blueprints.append(Blueprint(intent, tuple(chosen)))
    return blueprints
