"""A response cache in SQLite, for deterministic replays of model calls.

The key is a hash of everything that shapes a reply: the model, the messages, the tools, the
tool choice, the temperature, the seed and the other sampling parameters (not the endpoint or
the API key). A hit returns the stored reply without calling the provider, so a run replayed
against a filled cache reproduces every conversation exactly. Only successful replies are
stored. One file may be shared by several processes (SQLite's own locking; WAL journal).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tau_env.llm.response import LLMResponse
from tau_env.llm.sqlite_file import SharedSQLiteFile
from tau_env.utils.surrogates import escape_surrogates, json_utf8

__all__ = ["ResponseCache", "request_key"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    response TEXT NOT NULL,
    created REAL NOT NULL
)
"""


def request_key(
    *,
    model: str,
    messages: Sequence[Mapping[str, Any]],
    tools: Sequence[Mapping[str, Any]] | None,
    tool_choice: str | Mapping[str, Any] | None,
    temperature: float | None,
    seed: int | None,
    params: Mapping[str, Any],
) -> str:
    """The cache key of a request: a SHA-256 of its canonical JSON."""
    payload = {
        "model": model,
        "messages": list(messages),
        "tools": list(tools) if tools else None,
        "tool_choice": tool_choice,
        "temperature": temperature,
        "seed": seed,
        "params": dict(params),
    }
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(json_utf8(text)).hexdigest()


class ResponseCache(SharedSQLiteFile):
    """Stored replies, keyed by `request_key`.

    Args:
        path: The SQLite file (created with its folder when missing).
    """

    def __init__(self, path: str | Path) -> None:
        super().__init__(path, _SCHEMA)

    def get(self, key: str) -> LLMResponse | None:
        """The stored reply for `key`, marked as cached, or None."""
        with self._connect() as db:
            row = db.execute("SELECT response FROM responses WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        return LLMResponse.from_record(json.loads(row[0]), cached=True)

    def put(self, key: str, response: LLMResponse) -> None:
        """Store a reply (the first one stored for a key wins)."""
        # SQLite takes UTF-8 text: a reply's lone surrogate is kept as its JSON escape.
        record = escape_surrogates(json.dumps(response.to_record(), ensure_ascii=False))
        with self._connect() as db:
            db.execute(
                "INSERT OR IGNORE INTO responses (key, model, response, created) "
                "VALUES (?, ?, ?, ?)",
                (key, response.model, record, time.time()),
            )

    def __len__(self) -> int:
        with self._connect() as db:
            (count,) = db.execute("SELECT COUNT(*) FROM responses").fetchone()
        return int(count)

    def clear(self) -> None:
        """Remove every stored reply."""
        with self._connect() as db:
            db.execute("DELETE FROM responses")
