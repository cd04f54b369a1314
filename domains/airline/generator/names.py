"""Word lists for the built-in airline world: people's names and postal addresses."""

from __future__ import annotations

from tau_env.domains.word_lists import word_lists

__all__ = ["NAMES"]

NAMES = word_lists(__package__, "names.toml")
"""Names, streets, cities and card brands (``names.toml``, next to this module)."""
