"""Name, street and city pools for the built-in customers (invented, no real people)."""

from __future__ import annotations

from tau_env.domains.word_lists import word_lists

__all__ = ["PEOPLE"]

PEOPLE = word_lists(__package__, "people.toml")
"""Names, streets, cities and card brands (``people.toml``, next to this module)."""
