"""The pipeline writes a set without holding it whole: the streamed task file is the same
bytes as the rendered one, and the streamed hash the same as the hash of the files
(`test_bounded_memory`: no candidate task is held)."""

from __future__ import annotations

import json
from pathlib import Path

from tau_env.generation.manifest import content_hash, folder_files, folder_hash
from tau_env.generation.render import tasks_text, write_tasks_text


def _tasks(count: int) -> list[dict]:
    return [
        {"id": f"t/{i}", "text": "é" * i, "criteria": {"actions": [{"n": i}]}} for i in range(count)
    ]


def test_write_tasks_text__the_same_bytes_as_tasks_text(tmp_path: Path):
    for count in (0, 1, 3, 50):
        path = tmp_path / f"tasks_{count}.json"
        write_tasks_text(path, iter(_tasks(count)))
        assert path.read_bytes() == tasks_text(_tasks(count))
        assert json.loads(path.read_text(encoding="utf-8")) == _tasks(count)


def test_folder_hash__the_content_hash_of_the_folder_files(tmp_path: Path):
    (tmp_path / "documents").mkdir()
    (tmp_path / "documents" / "a.json").write_bytes(b"{}" * 1_000_000)
    (tmp_path / "db.json").write_text("{}")
    (tmp_path / "manifest.json").write_text("not hashed")
    assert folder_hash(tmp_path) == content_hash(folder_files(tmp_path))
