"""A SQLite file that several processes share: the storage of the response and embedding caches."""

from __future__ import annotations

import sqlite3
from pathlib import Path

__all__ = ["SharedSQLiteFile"]


class SharedSQLiteFile:
    """A SQLite file created with its folder and schema, opened per use in WAL mode.

    A connection per use (rather than one kept open) lets threads and worker processes share
    the file; WAL lets readers go on while one writes.

    Args:
        path: The SQLite file (created with its folder when missing).
        schema: SQL run once on creation (``CREATE TABLE IF NOT EXISTS ...``).
    """

    def __init__(self, path: str | Path, schema: str) -> None:
        self.path = Path(path).expanduser()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(schema)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self.path)!r})"

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=30.0)
