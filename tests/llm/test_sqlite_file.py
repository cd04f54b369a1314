"""`SharedSQLiteFile`: the caches' storage is created with its folder and schema, in WAL mode."""

import sqlite3

from tau_env.llm.cache import ResponseCache
from tau_env.llm.embeddings import EmbeddingCache
from tau_env.llm.sqlite_file import SharedSQLiteFile


def test_shared_sqlite_file__creates_folder_schema_and_wal(tmp_path):
    path = tmp_path / "deep" / "folder" / "file.sqlite"
    opened = SharedSQLiteFile(path, "CREATE TABLE IF NOT EXISTS things (key TEXT PRIMARY KEY)")
    assert path.exists() and repr(opened) == f"SharedSQLiteFile({str(path)!r})"
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall() == [
            ("things",)
        ]
    SharedSQLiteFile(path, "CREATE TABLE IF NOT EXISTS things (key TEXT PRIMARY KEY)")  # again


def test_caches__are_shared_sqlite_files_named_by_their_class(tmp_path):
    responses, vectors = ResponseCache(tmp_path / "r.sqlite"), EmbeddingCache(tmp_path / "e.sqlite")
    assert isinstance(responses, SharedSQLiteFile) and isinstance(vectors, SharedSQLiteFile)
    assert repr(responses).startswith("ResponseCache(") and repr(vectors).startswith(
        "EmbeddingCache("
    )
