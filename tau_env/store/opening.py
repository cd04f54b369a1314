"""Opening a result store's SQLite file: for writing, or read-only, never touching a stranger.

Commands that only read (``report``, ``export``, ``runs``) open the file read-only: they never
change it, not even its journal mode, and they work on a copy in a read-only folder or file
system. Any command first checks that the file is a tau_env store (its tables and the schema
row) and refuses another SQLite file before anything is written to it; only an empty database
(a new file) receives the store's tables.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tau_env.errors import TauEnvError

__all__ = ["STORE_TABLES", "NotAStore", "check_store", "connect", "in_memory_copy"]

STORE_TABLES = frozenset({"meta", "runs", "episodes", "failures"})
"""The tables every tau_env result store has (a response cache may add its own)."""


class NotAStore(TauEnvError, ValueError):
    """The file is a SQLite database, but not a tau_env result store (it was left unchanged)."""


def connect(path: str, *, read_only: bool) -> sqlite3.Connection:
    """A connection to the store's file, in autocommit mode.

    Read-only: the file must exist; it is opened with ``mode=ro``, and when SQLite cannot
    create the ``-shm`` file a WAL database needs (a read-only folder or file system), with
    ``immutable=1`` (nobody can be writing it then).

    Raises:
        TauEnvError: The path is a folder, or cannot be created or opened; the message names
            the path (never a bare ``sqlite3.OperationalError``).
    """
    if path == ":memory:":
        return sqlite3.connect(path, isolation_level=None)
    file = Path(path).expanduser()
    if file.is_dir():
        raise TauEnvError(
            f"{path}: is a folder; a result store is a file, such as {file / 'tau_env_runs.sqlite'}"
        )
    if read_only:
        return _connect_read_only(path, file.resolve())
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise TauEnvError(f"{path}: cannot create its folder: {error}") from None
    try:
        return sqlite3.connect(path, isolation_level=None)
    except sqlite3.Error as error:
        raise TauEnvError(f"{path}: cannot open the result store: {error}") from None


def _connect_read_only(path: str, file: Path) -> sqlite3.Connection:
    if not file.is_file():
        raise TauEnvError(f"{path}: no such result store")
    for flags in ("mode=ro", "mode=ro&immutable=1"):
        try:
            db = sqlite3.connect(f"{file.as_uri()}?{flags}", uri=True, isolation_level=None)
            db.execute("SELECT name FROM sqlite_master LIMIT 1").fetchall()
        except sqlite3.OperationalError as error:
            last = error
            continue
        except sqlite3.DatabaseError as error:  # not a database at all
            raise TauEnvError(f"{path}: not a usable result store: {error}") from None
        return db
    raise TauEnvError(f"{path}: cannot open the result store to read it: {last}") from None


def check_store(db: sqlite3.Connection, path: str, *, allow_empty: bool) -> bool:
    """Check that the database is a tau_env store; True when it is empty (a new file).

    Raises:
        NotAStore: It holds other tables, or lacks some of the store's, or, read-only
            (`allow_empty` False), holds nothing; nothing was written to it.
        TauEnvError: It is not a SQLite database at all.
    """
    try:
        rows = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    except sqlite3.DatabaseError as error:
        raise TauEnvError(f"{path}: not a usable result store: {error}") from None
    tables = {name for (name,) in rows}
    if not tables and allow_empty:
        return True
    missing = STORE_TABLES - tables
    schema = None
    if not missing:
        schema = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    if missing or schema is None:
        found = ", ".join(sorted(tables)[:6]) or "no tables"
        raise NotAStore(
            f"{path}: not a tau_env result store (it holds {found}; a store has the tables "
            f"{', '.join(sorted(STORE_TABLES))}); it was left unchanged"
        )
    return False


def in_memory_copy(db: sqlite3.Connection) -> sqlite3.Connection:
    """A private in-memory copy of the database (an old schema is migrated there, not on disk)."""
    copy = sqlite3.connect(":memory:", isolation_level=None)
    db.backup(copy)
    return copy
