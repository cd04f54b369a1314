"""Counts of what the reliability tests injected, printed at the end of the session.

The issue's note reports them (fuzzed steps per domain, fault cases, kill points); the tests
that produce them also assert on them, so a count of zero fails rather than passes silently.
"""

from __future__ import annotations

from collections import Counter

TALLY: dict[str, Counter[str]] = {}
"""Section -> label -> count (e.g. ``"fuzzed steps"`` -> ``"telecom/official user"`` -> 812)."""


def count(section: str, label: str, n: int = 1) -> None:
    """Add `n` to a label of a section."""
    TALLY.setdefault(section, Counter())[label] += n


def lines() -> list[str]:
    """The tally as text lines, one per label, grouped by section."""
    out = []
    for section in sorted(TALLY):
        counter = TALLY[section]
        out.append(f"{section}: {sum(counter.values())}")
        out += [f"  {label}: {n}" for label, n in sorted(counter.items())]
    return out
