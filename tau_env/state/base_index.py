"""An index of a table's shared base by one value of its records, built once per base.

Tools often look for the records whose field equals a value (a user's accounts, an account's
transactions). Reading every record for that costs a Python step per record, in every call of
every episode, although the base of a table is shared and never changes. A `BaseIndex` groups
the base's keys by the value once; `Table.items_where` answers the filter from it and the
view's own changes, in the order `Table.items` gives.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Generic, TypeVar

__all__ = ["BaseIndex", "base_index"]

R = TypeVar("R")


class BaseIndex(Generic[R]):
    """The keys of a base's records grouped by ``value_of(record)``, with each key's position.

    Attributes:
        base: The records indexed (a table's shared base: never changed).
        value_of: The value records are grouped by.
        keys_by_value: Value -> the keys of the records holding it, in base order. Records
            whose value cannot be hashed (a list, a dict) are left out: such a value never
            equals the hashable values looked up.
        position: Key -> its place in the base's order.
    """

    __slots__ = ("base", "keys_by_value", "position", "value_of")

    def __init__(self, base: Mapping[str, R], value_of: Callable[[R], object]) -> None:
        self.base = base
        self.value_of = value_of
        self.position = {key: number for number, key in enumerate(base)}
        grouped: dict[Hashable, list[str]] = {}
        for key, record in base.items():
            value = value_of(record)
            try:
                keys = grouped.setdefault(value, [])
            except TypeError:  # unhashable
                continue
            keys.append(key)
        self.keys_by_value = grouped


_INDEXES: dict[tuple[int, Hashable], BaseIndex[object]] = {}
_MAX_INDEXES = 10_000  # bases of reloaded data come and go: the memo is emptied past this size


def base_index(
    base: Mapping[str, R], name: Hashable, value_of: Callable[[R], object]
) -> BaseIndex[R]:
    """The index of `base` by `value_of`, which `name` names; made on first use, then kept.

    Kept by the base's identity while that base is the one indexed (the id of a dead base may
    be reused, hence the identity check); `name` must name one `value_of` for good.
    """
    key = (id(base), name)
    index = _INDEXES.get(key)
    if index is None or index.base is not base:
        if len(_INDEXES) >= _MAX_INDEXES:
            _INDEXES.clear()
        index = _INDEXES[key] = BaseIndex(base, value_of)  # type: ignore[arg-type]
    return index  # type: ignore[return-value]
