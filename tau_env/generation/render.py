"""Deterministic file text for generated task sets: the same content always gives the same bytes.

Large files hold one record (or task) per line, so a diff of two sets reads line by line and a
reader can stream them; small ones are indented.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

__all__ = [
    "database_text",
    "model_tables",
    "split_text",
    "task_dict",
    "tasks_text",
    "write_tasks_text",
]


_dumps = json.JSONEncoder(ensure_ascii=False, sort_keys=False).encode
"""A value as compact-spaced JSON text, non-ASCII kept (one encoder for every record: what
``json.dumps`` with these options gives, without building an encoder per call)."""


def database_text(tables: Mapping[str, Mapping[str, Any]]) -> bytes:
    """``{table: {key: record}}`` with one record per line.

    A record is a JSON object, or a pydantic model dumped to one as its line is written: a
    world drawn as models is never held a second time as JSON objects (for 58,596 airline
    customers that was about 1 GB more at the draw's peak). The lines go into one buffer.
    """
    out = io.BytesIO()
    out.write(b"{\n")
    for number, (name, records) in enumerate(tables.items()):
        out.write((",\n" if number else "").encode() + f"{_dumps(name)}: ".encode())
        if not records:
            out.write(b"{}")
            continue
        separator = b"{\n"
        for key, record in records.items():
            if isinstance(record, BaseModel):
                record = record.model_dump(mode="json")
            out.write(separator + f"{_dumps(key)}: {_dumps(record)}".encode())
            separator = b",\n"
        out.write(b"\n}")
    out.write(b"\n}\n")
    return out.getvalue()


def model_tables(model: BaseModel) -> dict[str, Mapping[str, Any]]:
    """A world model's tables (its fields, in order), their records left as models.

    For `database_text`: the same text as ``database_text(model.model_dump(mode="json"))``.
    """
    return {name: getattr(model, name) for name in type(model).model_fields}


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
