"""Copies of the parts of a record that a tool changes, the rest shared with the original.

`Table.edit` copies a whole record before a tool changes it; for a flight with a status per
date, or an order with its items and fulfilments, that is most of a tool call's cost, and the
grader then compares every copied part again. A tool that changes one part asks for that part
(`Table.edit_part`): the record and each container on the way to the part are copied one level
(their other entries stay shared with the committed record), and the part itself is copied
whole. What a table owns of such a record is kept as an `Owned` tree, so that asking for a
wider part, or for the whole record, later in the same transaction copies only what is still
shared and keeps every part already handed out.

Models are copied one level like `record_copy` copies them (``model_fields_set`` holds every
field, as after validation). A model type that `record_copy` cannot copy field by field is
copied whole instead, and everything under it is then owned.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from tau_env.state.record_copy import copy_record, top_copier_for

__all__ = ["WHOLE", "Owned", "complete", "follow", "own_path", "shallow_copy", "whole_copy"]


class _Whole:
    def __repr__(self) -> str:
        return "WHOLE"


WHOLE = _Whole()
"""Marks a value owned whole: it and everything inside it may be changed."""

Owned = dict[Any, "Owned | _Whole"]
"""What a table owns of a value copied one level: entry (field, key or index) -> owned part."""


def shallow_copy(value: Any) -> tuple[Any, Owned | _Whole]:
    """`value` copied one level, and what of it is owned (nothing yet, or `WHOLE`).

    Raises:
        TypeError: `value` has no parts to copy (a scalar, a tuple or a set).
    """
    if isinstance(value, BaseModel):
        copier = top_copier_for(type(value))
        if copier is None:  # not copyable field by field: copied (and owned) whole
            return copy_record(value), WHOLE
        return copier(value), {}  # every field set, as after validation (as `copy_record`)
    if isinstance(value, dict):
        return dict(value), {}
    if isinstance(value, list):
        return list(value), {}
    raise TypeError(f"cannot edit inside a {type(value).__name__}")


def whole_copy(value: Any) -> Any:
    """A deep copy of a value inside a record (models as `copy_record` copies them)."""
    if isinstance(value, BaseModel):
        return copy_record(value)
    if isinstance(value, dict):
        return {key: whole_copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [whole_copy(item) for item in value]
    if isinstance(value, set):
        return set(value)
    return value  # immutable (a string, a number, a tuple of them...)


def follow(value: Any, path: tuple[Any, ...]) -> Any:
    """The value at `path` inside `value` (field names, dict keys, list indexes)."""
    for step in path:
        value = _child(value, step)
    return value


def own_path(root: Any, owned: Owned, path: tuple[Any, ...]) -> Any:
    """Make the value at `path` inside `root` owned whole, copying what is still shared.

    Args:
        root: A value copied one level (this table's own), whose ownership is `owned`.
        owned: Updated in place.
        path: Non-empty.

    Returns:
        The value at `path`, which the caller may now change.
    """
    node, tree = root, owned
    last = len(path) - 1
    for position, step in enumerate(path):
        child = _child(node, step)
        part = tree.get(step)
        if part is WHOLE:
            return follow(child, path[position + 1 :])
        if position == last:
            if isinstance(part, dict):
                complete(child, part)
            else:
                child = whole_copy(child)
                _put(node, step, child)
            tree[step] = WHOLE
            return child
        if part is None:
            child, part = shallow_copy(child)
            _put(node, step, child)
            tree[step] = part
        if not isinstance(part, dict):  # copied whole just now
            return follow(child, path[position + 1 :])
        node, tree = child, part
    raise AssertionError("unreachable: the path is not empty")


def complete(value: Any, owned: Owned) -> None:
    """Copy, in place, every part of `value` (copied one level) that is still shared."""
    for step, child in list(_children(value)):
        part = owned.get(step)
        if part is None:
            _put(value, step, whole_copy(child))
        elif isinstance(part, dict):
            complete(child, part)


def _child(node: Any, step: Any) -> Any:
    if isinstance(node, BaseModel):
        try:
            return node.__dict__[step]
        except KeyError:
            raise AttributeError(f"{type(node).__name__} has no field {step!r}") from None
    return node[step]


def _put(node: Any, step: Any, value: Any) -> None:
    if isinstance(node, BaseModel):
        node.__dict__[step] = value  # the field exists (read just before)
    else:
        node[step] = value


def _children(node: Any) -> Any:
    if isinstance(node, BaseModel):
        return node.__dict__.items()
    if isinstance(node, dict):
        return node.items()
    return enumerate(node)
