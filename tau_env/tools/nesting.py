"""How deeply tool-call arguments may nest, and what a trajectory keeps of deeper ones.

No tool takes arguments more than a few levels deep (airline's flights: a list of objects in
the arguments object). Arguments nested thousands of levels deep (a model can write them, and
Python's JSON reader accepts about a thousand) break every recursive consumer downstream:
``repr``, ``json.dumps``, pydantic's serializer (about 255 levels) and so the result store. So
such arguments are refused at the boundary: a call whose arguments nest deeper than
`MAX_ARGUMENT_DEPTH` gets an ``Error: ...`` result without reaching the tool, and the
trajectory records the arguments cut at that depth (`clipped`).

Both functions here look at most `MAX_ARGUMENT_DEPTH` + 1 levels down, so they work on values of
any depth without reaching Python's recursion limit.
"""

from __future__ import annotations

from typing import Any

__all__ = ["CUT_MARK", "MAX_ARGUMENT_DEPTH", "clipped", "nests_deeper_than"]

MAX_ARGUMENT_DEPTH = 64
"""Levels of objects and arrays tool-call arguments may have (the arguments object is one)."""

CUT_MARK = f"(cut: nested more than {MAX_ARGUMENT_DEPTH} levels deep)"
"""What `clipped` puts in place of a container beyond the limit."""

_CONTAINERS = (dict, list, tuple)
_CONTAINER_TYPES = frozenset(_CONTAINERS)
_SCALARS = frozenset((str, int, float, bool, type(None)))


def nests_deeper_than(value: Any, limit: int = MAX_ARGUMENT_DEPTH) -> bool:
    """True when `value` has more than `limit` levels of dicts, lists and tuples.

    A scalar has no level; ``{}`` and ``{"a": 1}`` have one; ``{"a": [1]}`` has two.
    """
    if not isinstance(value, _CONTAINERS):
        return False
    if type(value) is dict and _SCALARS.issuperset(map(type, value.values())):
        return limit < 1  # the usual arguments: one level (a set test, no Python loop)
    return _exceeds(value, limit)


def _exceeds(container: Any, limit: int) -> bool:
    """Whether `container` has more than `limit` levels (recursing at most `limit` deep)."""
    if limit < 1:
        return True
    items = container.values() if isinstance(container, dict) else container
    for item in items:
        kind = type(item)  # (exact types first: `isinstance` only for what is neither)
        if kind in _SCALARS:
            continue
        if (kind in _CONTAINER_TYPES or isinstance(item, _CONTAINERS)) and _exceeds(
            item, limit - 1
        ):
            return True
    return False


def clipped(value: Any, limit: int = MAX_ARGUMENT_DEPTH) -> Any:
    """`value` with every container below `limit` levels replaced by `CUT_MARK`.

    Containers within the limit are copied (dicts stay dicts, tuples become lists, as JSON
    would have them); scalars are kept as they are.
    """
    if not isinstance(value, _CONTAINERS):
        return value
    if limit <= 0:
        return CUT_MARK
    if isinstance(value, dict):
        return {key: clipped(item, limit - 1) for key, item in value.items()}
    return [clipped(item, limit - 1) for item in value]
