"""Copy-on-write views of records that are shared by every episode of a process.

A database file is parsed once; its records are then shared, read-only, by every episode. An
episode that changes a record first copies that one record (`Table.edit`), so resetting an
episode costs the same for a 100-record and a 100,000-record database, and no episode can see
another's changes.

Rule for tool authors: a record obtained from `get`, indexing or iteration is shared and must
not be modified; call `edit` to obtain this episode's own, modifiable copy, or, cheaper,
`edit_part` for the one part of it the tool changes and `update` to set fields to new values.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Hashable, Iterator, Mapping
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from tau_env.errors import ToolError
from tau_env.state.base_index import BaseIndex, base_index
from tau_env.state.journal import Journal
from tau_env.state.partial_copy import WHOLE, Owned, complete, follow, own_path, shallow_copy
from tau_env.state.record_copy import copy_record

__all__ = ["ABSENT", "DELETED", "Slot", "Table", "added_keys", "copy_record", "record_of"]

R = TypeVar("R", bound=BaseModel)


class _Marker:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


ABSENT = _Marker("ABSENT")
"""Not an entry of an overlay (`Table.overlay`): the base record, if any, shows through."""
DELETED = _Marker("DELETED")
"""The overlay entry of a base record the view deleted."""


def record_of(entry: object, base: Mapping[str, R], key: str) -> R | None:
    """The record the overlay entry `entry` for `key` stands for (None: no record).

    `ABSENT` is the base's record (if any), `DELETED` none, anything else the record itself.
    """
    if entry is ABSENT:
        return base.get(key)
    return None if entry is DELETED else entry  # type: ignore[return-value]


def added_keys(changes: Mapping[str, object], base: Mapping[str, object]) -> list[str]:
    """Keys of the records the overlay `changes` adds to `base`, in the order they were added."""
    return [key for key, entry in changes.items() if entry is not DELETED and key not in base]


class Table(Generic[R]):
    """An ordered mapping of id -> record: a shared base plus this episode's changes.

    Iteration yields base keys in base order, then new keys in the order they were inserted.

    Attributes:
        version: Counts the changes of the table's entries (inserts, edits, deletions, undos),
            so a reader can tell cheaply that nothing changed since it last looked (the sync
            rule is skipped when none of its tables changed).
    """

    def __init__(
        self,
        name: str,
        base: Mapping[str, R],
        journal: Journal,
        changes: dict[str, R | _Marker] | None = None,
        version: int = 0,
        shared: bool = False,
    ) -> None:
        """Create a view of `base` with the overlay `changes`.

        Args:
            name: The table's name (for messages).
            base: The shared records, never modified.
            journal: Records every change, for rollback.
            changes: The overlay to start from (key -> record or deletion marker).
            version: The version to start from (a fork's: its parent's).
            shared: `changes` is also another view's (a fork's): it is copied before this
                view's first change, so forking costs nothing per changed record.
        """
        self.name = name
        self._base = base
        self._journal = journal
        self._changes: dict[str, R | _Marker] = {} if changes is None else changes
        self._shared = shared
        self._working: set[str] = set()  # keys copied whole during the open transaction
        self._parts: dict[str, Owned] = {}  # keys copied in part (`edit_part`), and what
        self.version = version

    # -- reading -------------------------------------------------------------------------------
    def get(self, key: str) -> R | None:
        """The record under `key` (shared: do not modify), or None."""
        return record_of(self._changes.get(key, ABSENT), self._base, key)

    def require(self, key: str, missing: str) -> R:
        """The record under `key` (shared: do not modify); `ToolError(missing)` when absent.

        The usual first line of a tool: the calling side sees `missing` as ``Error: ...``.
        """
        record = self.get(key)
        if record is None:
            raise ToolError(missing)
        return record

    def __getitem__(self, key: str) -> R:
        record = self.get(key)
        if record is None:
            raise KeyError(key)
        return record

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.get(key) is not None

    def __iter__(self) -> Iterator[str]:
        changes = self._changes
        for key in self._base:
            if changes.get(key, ABSENT) is not DELETED:
                yield key
        for key, entry in changes.items():
            if entry is not DELETED and key not in self._base:
                yield key

    def __len__(self) -> int:
        return sum(1 for _ in self) if self._changes else len(self._base)

    def keys(self) -> Iterator[str]:
        """Keys in table order."""
        return iter(self)

    def values(self) -> Iterator[R]:
        """Records in table order (shared: do not modify)."""
        for _, record in self.items():
            yield record

    def items(self) -> Iterator[tuple[str, R]]:
        """(key, record) pairs in table order (records shared: do not modify)."""
        changes = self._changes
        if not changes:
            yield from self._base.items()
            return
        for key, record in self._base.items():
            entry = changes.get(key, ABSENT)
            if entry is ABSENT:
                yield key, record
            elif entry is not DELETED:
                yield key, entry  # type: ignore[misc]
        for key, entry in changes.items():
            if entry is not DELETED and key not in self._base:
                yield key, entry  # type: ignore[misc]

    def index(self, name: Hashable, value_of: Callable[[R], object]) -> BaseIndex[R]:
        """The index of this view's shared base by `value_of` (named `name`), for `items_where`.

        Made once per base (`base_index`): every episode's view of the table shares it.
        """
        return base_index(self._base, name, value_of)

    def items_where(self, index: BaseIndex[R], expected: Hashable) -> list[tuple[str, R]]:
        """The pairs of `items` whose ``index.value_of(record) == expected``, in the same order.

        Read from `index` (this view's base's) and this view's changes, not from every record.
        `expected` must equal exactly the values that hash as it does: JSON's ``str``,
        ``int``, ``float``, ``bool`` or None, or a tuple of them (not NaN, which equals nothing).

        Raises:
            ValueError: `index` was built on another base.
        """
        base = self._base
        if index.base is not base:
            raise ValueError(f"the index was not built on table {self.name!r}'s base")
        keys = index.keys_by_value.get(expected, ())
        changes = self._changes
        if not changes:
            return [(key, base[key]) for key in keys]
        found = [(key, base[key]) for key in keys if key not in changes]
        value_of, position = index.value_of, index.position
        replaced = False  # a changed base record now holding the value: it keeps its place
        added: list[tuple[str, R]] = []
        for key, entry in changes.items():
            if entry is not DELETED and value_of(entry) == expected:  # type: ignore[arg-type]
                if key in position:
                    found.append((key, entry))  # type: ignore[arg-type]
                    replaced = True
                else:
                    added.append((key, entry))  # type: ignore[arg-type]
        if replaced:
            found.sort(key=lambda pair: position[pair[0]])
        return found + added if added else found

    # -- writing -------------------------------------------------------------------------------
    def edit(self, key: str) -> R:
        """This episode's modifiable copy of the record under `key`.

        Raises:
            KeyError: There is no such record.
        """
        if key in self._working:
            return self._changes[key]  # type: ignore[return-value]
        owned = self._parts.pop(key, None)
        if owned is not None:  # copied in part in this transaction: copy the rest
            record = self._changes[key]
            complete(record, owned)
            self._working.add(key)
            return record  # type: ignore[return-value]
        current = self.get(key)
        if current is None:
            raise KeyError(key)
        record = copy_record(current)
        self._set(key, record)
        return record

    def edit_part(self, key: str, *path: Any) -> Any:
        """This episode's modifiable copy of one part of the record under `key`.

        Copies only that part (whole) and, one level each, the record and the containers on
        the way to it; the rest of the record stays shared and must not be changed (take it
        with another `edit_part`, or the whole record with `edit`: parts already handed out
        stay the record's). No path: `edit`.

        Args:
            key: The record's key.
            path: Field names, dict keys and list indexes leading to the part, such as
                ``("dates", "2024-05-01")``.

        Raises:
            KeyError: There is no such record, or no such dict key on the path.
            AttributeError: No such field on the path.
        """
        if not path:
            return self.edit(key)
        if key in self._working:
            return follow(self._changes[key], path)
        owned = self._parts.get(key)
        if owned is None:
            owned = self._copy_top(key)
            if owned is None:  # copied whole
                return follow(self._changes[key], path)
        return own_path(self._changes[key], owned, path)

    def edit_top(self, key: str) -> R:
        """The record under `key` copied one level, for assigning its fields; cheaper than `edit`.

        Assign fields freely, but only values that belong to no other record (new objects,
        validated arguments, immutable values); change nothing inside a field's value (take
        `edit_part` for that, or `edit`).

        Raises:
            KeyError: There is no such record.
        """
        if key not in self._working and key not in self._parts:
            self._copy_top(key)
        return self._changes[key]  # type: ignore[return-value]

    def update(self, key: str, **fields: Any) -> None:
        """Set fields of the record under `key` to new values; cheaper than `edit`.

        The values become the record's: change them afterwards only through `edit_part` (they
        may be shared with other records, so they are copied when a part of them is asked for).

        Raises:
            KeyError: There is no such record.
            AttributeError: The record has no such field.
        """
        owned = self._parts.get(key)
        if owned is None and key not in self._working:
            owned = self._copy_top(key)
        record: Any = self._changes[key]
        if owned is None:  # owned whole: every field but the new ones stays so
            self._working.discard(key)
            owned = self._parts[key] = dict.fromkeys(record.__dict__, WHOLE)
        names = type(record).__pydantic_fields__
        for name, value in fields.items():
            if name not in names:
                raise AttributeError(f"{type(record).__name__} has no field {name!r}")
            record.__dict__[name] = value
            owned.pop(name, None)

    def insert(self, key: str, record: R) -> None:
        """Add a record, or replace the one under `key`."""
        self._set(key, record)

    def delete(self, key: str) -> None:
        """Remove the record under `key`.

        Raises:
            KeyError: There is no such record.
        """
        if self.get(key) is None:
            raise KeyError(key)
        changes = self._own_changes()
        self._journal.remember(self, key, changes.get(key, ABSENT))
        self._working.discard(key)
        self._parts.pop(key, None)
        self.version += 1
        if key in self._base:
            changes[key] = DELETED
        else:
            del changes[key]

    def _set(self, key: str, record: R) -> None:
        changes = self._changes if not self._shared else self._own_changes()
        self._journal.remember(self, key, changes.get(key, ABSENT))
        changes[key] = record
        self._working.add(key)
        if self._parts:
            self._parts.pop(key, None)
        self.version += 1

    def _copy_top(self, key: str) -> Owned | None:
        """Put a one-level copy of the record under `key` in place; what of it is owned.

        Returns None when the record had to be copied whole (it is then owned whole).
        """
        current = self.get(key)
        if current is None:
            raise KeyError(key)
        record, owned = shallow_copy(current)
        self._set(key, record)
        if not isinstance(owned, dict):
            return None
        self._working.discard(key)
        self._parts[key] = owned
        return owned

    def _own_changes(self) -> dict[str, R | _Marker]:
        """The overlay, copied first if a fork shares it."""
        if self._shared:
            self._changes = dict(self._changes)
            self._shared = False
        return self._changes

    # -- journal protocol ----------------------------------------------------------------------
    def undo(self, key: str, previous: object) -> None:
        """Put back the overlay entry `key` had before the transaction."""
        self.version += 1
        changes = self._own_changes()
        if previous is ABSENT:
            changes.pop(key, None)
        else:
            changes[key] = previous  # type: ignore[assignment]

    def end_transaction(self) -> None:
        """Records copied from now on are copied again (committed copies are never mutated)."""
        self._working.clear()
        self._parts.clear()

    def copied_in_transaction(self) -> Container[str]:
        """Keys whose records the open transaction copied: the only records that may still change.

        Every other record (the shared base, and copies committed before) is never modified
        in place again, so whatever is derived from it (its rendered text) stays true for as
        long as the record lives. Read it before the next change of the table.
        """
        parts = self._parts
        return self._working if not parts else self._working | parts.keys()

    # -- episode bookkeeping -------------------------------------------------------------------
    def changed_keys(self) -> list[str]:
        """Keys whose entry differs from the base by identity, in overlay order."""
        return list(self._changes)

    def has_changes(self) -> bool:
        """True when some entry differs from the base by identity."""
        return bool(self._changes)

    def overlay(self) -> Mapping[str, object]:
        """The raw overlay (key -> record or `DELETED`); do not modify. Forks may share it.

        `record_of` reads an entry; `added_keys` lists the records it adds.
        """
        return self._changes

    def fork(self, journal: Journal) -> Table[R]:
        """A new view over the same base that starts with this view's changes.

        Committed records are never modified in place, so sharing them is safe; the overlay
        itself is shared until either view changes it (`share_state`).
        """
        changes, version = self.share_state()
        return Table(self.name, self._base, journal, changes, version, shared=True)

    def share_state(self) -> tuple[dict[str, R | _Marker], int]:
        """The overlay and version, for a fork; the overlay is then never changed in place.

        Raises:
            RuntimeError: A transaction is open (its changes are not committed yet).
        """
        if self._working or self._parts:
            raise RuntimeError(f"table {self.name!r} cannot be forked inside a transaction")
        self._shared = True
        return self._changes, self.version


class Slot(Generic[R]):
    """A single copy-on-write record (for example the user's phone)."""

    KEY = "value"

    def __init__(self, table: Table[R]) -> None:
        self.table = table

    def get(self) -> R:
        """The record (shared: do not modify)."""
        return self.table[self.KEY]

    def edit(self) -> R:
        """This episode's modifiable copy of the record."""
        return self.table.edit(self.KEY)

    def edit_part(self, *path: Any) -> Any:
        """This episode's modifiable copy of one part of the record (`Table.edit_part`)."""
        return self.table.edit_part(self.KEY, *path)

    def edit_top(self) -> R:
        """The record copied one level, for assigning its fields (`Table.edit_top`)."""
        return self.table.edit_top(self.KEY)

    def update(self, **fields: Any) -> None:
        """Set fields of the record to new values (`Table.update`)."""
        self.table.update(self.KEY, **fields)

    def replace(self, record: R) -> None:
        """Put a new record in place of the current one."""
        self.table.insert(self.KEY, record)
