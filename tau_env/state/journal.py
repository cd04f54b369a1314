"""An undo log that makes each tool call a transaction over copy-on-write tables."""

from __future__ import annotations

from types import TracebackType
from typing import Protocol

__all__ = ["Journal", "Undoable"]


class Undoable(Protocol):
    """A container whose changes the journal can take back."""

    def undo(self, key: str, previous: object) -> None:
        """Put `previous` back as the entry for `key`."""

    def end_transaction(self) -> None:
        """Forget which entries were copied in the transaction that just ended."""


class Journal:
    """Records the previous entry of every change so an unfinished write can be undone.

    One journal serves all tables of one world (both sides), so a write that touches several
    tables is undone as a whole.
    """

    def __init__(self) -> None:
        self._undo: list[tuple[Undoable, str, object]] = []
        self._touched: list[Undoable] = []

    def remember(self, container: Undoable, key: str, previous: object) -> None:
        """Record that `container[key]` is about to change from `previous`."""
        if not self._undo or self._undo[-1][0] is not container:
            self._touched.append(container)
        self._undo.append((container, key, previous))

    def commit(self) -> None:
        """Keep every change made since the last commit."""
        if not self._undo:  # nothing changed (a read): nothing to forget
            return
        for container in self._touched:
            container.end_transaction()
        self._undo.clear()
        self._touched.clear()

    def rollback(self) -> None:
        """Undo every change made since the last commit, newest first."""
        for container, key, previous in reversed(self._undo):
            container.undo(key, previous)
        self.commit()

    @property
    def pending(self) -> bool:
        """True while changes are recorded but not yet committed or rolled back."""
        return bool(self._undo)

    def transaction(self) -> Journal:
        """The block of ``with journal.transaction():`` is kept whole or undone whole.

        What it changed is committed, or all undone if it raises. The journal is its own
        context manager: every tool call opens one, and a generator-based one cost about a
        tenth of a cheap call.
        """
        return self

    def __enter__(self) -> None:
        return None

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if kind is None:
            self.commit()
        else:
            self.rollback()
