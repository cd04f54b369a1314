"""Copy-on-write views of records that are shared by every episode of a process.

A database file is parsed once; its records are then shared, read-only, by every episode. An
episode that changes a record first copies that one record (`Table.edit`), so resetting an
episode costs the same for a 100-record and a 100,000-record database, and no episode can see
another's changes.

Rule for tool authors: a record obtained from `get`, indexing or iteration is shared and must
not be modified; call `edit` to obtain this episode's own, modifiable copy.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Generic, TypeVar

from pydantic import BaseModel

from tau_env.errors import ToolError
from tau_env.state.journal import Journal
from tau_env.state.record_copy import copy_record

__all__ = ["Slot", "Table", "copy_record"]

R = TypeVar("R", bound=BaseModel)


class _Marker:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


_ABSENT = _Marker("ABSENT")  # no entry in the overlay: the base record (if any) shows through
_DELETED = _Marker("DELETED")  # the overlay hides a base record


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
    ) -> None:
        self.name = name
        self._base = base
        self._journal = journal
        self._changes: dict[str, R | _Marker] = {} if changes is None else changes
        self._working: set[str] = set()  # keys copied during the open transaction
        self.version = version

    # -- reading -------------------------------------------------------------------------------
    def get(self, key: str) -> R | None:
        """The record under `key` (shared: do not modify), or None."""
        entry = self._changes.get(key, _ABSENT)
        if entry is _ABSENT:
            return self._base.get(key)
        return None if entry is _DELETED else entry  # type: ignore[return-value]

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
            if changes.get(key, _ABSENT) is not _DELETED:
                yield key
        for key, entry in changes.items():
            if entry is not _DELETED and key not in self._base:
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
            entry = changes.get(key, _ABSENT)
            if entry is _ABSENT:
                yield key, record
            elif entry is not _DELETED:
                yield key, entry  # type: ignore[misc]
        for key, entry in changes.items():
            if entry is not _DELETED and key not in self._base:
                yield key, entry  # type: ignore[misc]

    # -- writing -------------------------------------------------------------------------------
    def edit(self, key: str) -> R:
        """This episode's modifiable copy of the record under `key`.

        Raises:
            KeyError: There is no such record.
        """
        if key in self._working:
            return self._changes[key]  # type: ignore[return-value]
        current = self.get(key)
        if current is None:
            raise KeyError(key)
        record = copy_record(current)
        self._set(key, record)
        return record

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
        self._journal.remember(self, key, self._changes.get(key, _ABSENT))
        self._working.discard(key)
        self.version += 1
        if key in self._base:
            self._changes[key] = _DELETED
        else:
            del self._changes[key]

    def _set(self, key: str, record: R) -> None:
        self._journal.remember(self, key, self._changes.get(key, _ABSENT))
        self._changes[key] = record
        self._working.add(key)
        self.version += 1

    # -- journal protocol ----------------------------------------------------------------------
    def undo(self, key: str, previous: object) -> None:
        """Put back the overlay entry `key` had before the transaction."""
        self.version += 1
        if previous is _ABSENT:
            self._changes.pop(key, None)
        else:
            self._changes[key] = previous  # type: ignore[assignment]

    def end_transaction(self) -> None:
        """Records copied from now on are copied again (committed copies are never mutated)."""
        self._working.clear()

    # -- episode bookkeeping -------------------------------------------------------------------
    def changed_keys(self) -> list[str]:
        """Keys whose entry differs from the base by identity, in overlay order."""
        return list(self._changes)

    def added_keys(self) -> list[str]:
        """Keys of records that are not in the base, in table order (after the base's keys)."""
        base = self._base
        return [k for k, e in self._changes.items() if e is not _DELETED and k not in base]

    def overlay_entry(self, key: str) -> object:
        """The raw overlay entry for `key`: a record, or a marker for absent/deleted."""
        return self._changes.get(key, _ABSENT)

    def fork(self, journal: Journal) -> Table[R]:
        """A new view over the same base that starts with a copy of this view's changes.

        Committed records are never modified in place, so sharing them is safe.
        """
        if self._working:
            raise RuntimeError(f"table {self.name!r} cannot be forked inside a transaction")
        return Table(self.name, self._base, journal, dict(self._changes), self.version)


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

    def replace(self, record: R) -> None:
        """Put a new record in place of the current one."""
        self.table.insert(self.KEY, record)
