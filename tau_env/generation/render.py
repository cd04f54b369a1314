"""Deterministic file text for generated task sets: the same content always gives the same bytes.

Large files hold one record (or task) per line, so a diff of two sets reads line by line and a
reader can stream them; small ones are indented.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

__all__ = ["database_text", "split_text", "task_dict", "tasks_text", "write_tasks_text"]


_dumps = json.JSONEncoder(ensure_ascii=False, sort_keys=False).encode
"""A value as compact-spaced JSON text, non-ASCII kept (one encoder for every record: what
``json.dumps`` with these options gives, without building an encoder per call)."""


def database_text(data: BaseModel) -> bytes:
    """A database's file: each table (a field of `data`, ``{key: record}``), a record a line.

    Records are dumped (JSON mode) one at a time as they are written: the text of dumping the
    whole model first, without a second copy of the world as JSON values held until the end
    (that copy's making and freeing were a fifth of a large set's file).
    """
    parts = []
    for name in type(data).model_fields:
        records: Mapping[str, BaseModel] = getattr(data, name)
        lines = [
            f"{_dumps(key)}: {_dumps(record.model_dump(mode='json'))}"
            for key, record in records.items()
        ]
        body = "{\n" + ",\n".join(lines) + "\n}" if lines else "{}"
        parts.append(f"{_dumps(name)}: {body}")
    return ("{\n" + ",\n".join(parts) + "\n}\n").encode("utf-8")


def tasks_text(tasks: Sequence[Mapping[str, Any]]) -> bytes:
    """A JSON list with one task per line."""
    return ("[\n" + ",\n".join(_dumps(task) for task in tasks) + "\n]\n").encode("utf-8")


def write_tasks_text(path: Path, tasks: Iterable[Mapping[str, Any]]) -> None:
    """Write `tasks_text` of `tasks` to `path` a task at a time (the same bytes, streamed)."""
    with path.open("wb") as out:
        out.write(b"[\n")
        separator = b""
        for task in tasks:
            out.write(separator + _dumps(task).encode("utf-8"))
            separator = b",\n"
        out.write(b"\n]\n")


def split_text(splits: Mapping[str, Sequence[str]]) -> bytes:
    """The split file (split name -> task ids)."""
    return (json.dumps({k: list(v) for k, v in splits.items()}, indent=1) + "\n").encode("utf-8")


def task_dict(task: Any) -> dict[str, Any]:
    """A `Task` model as a JSON object (None fields left out)."""
    dumped: dict[str, Any] = task.model_dump(mode="json", exclude_none=True)
    return dumped
