"""Rewriting the scalars of JSON-like data, without copying it when nothing changes."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["map_leaves"]


def map_leaves(value: Any, leaf: Callable[[Any], Any]) -> Any:
    """`value` with `leaf` applied to every scalar in it (mappings and sequences rebuilt).

    Returns `value` itself, not a copy, when `leaf` returns every scalar unchanged (the usual
    case for the cleaning functions that use it).
    """
    if isinstance(value, Mapping):
        items = {key: map_leaves(item, leaf) for key, item in value.items()}
        changed = any(items[key] is not item for key, item in value.items())
        return items if changed else value
    if isinstance(value, list | tuple):
        parts = [map_leaves(item, leaf) for item in value]
        changed = any(new is not old for new, old in zip(parts, value, strict=True))
        return type(value)(parts) if changed else value
    return leaf(value)
