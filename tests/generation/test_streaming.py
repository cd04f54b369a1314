"""The pipeline writes a set without holding it whole: the streamed task file is the same
bytes as the rendered one, and the streamed hash the same as the hash of the files
(`test_bounded_memory`: no candidate task is held)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from tau_env.domains.retail.generator.world import generate_world
from tau_env.generation.manifest import content_hash, folder_files, folder_hash
from tau_env.generation.render import database_text, model_tables, tasks_text, write_tasks_text


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


def test_database_text__the_whole_dump_of_the_world_a_record_a_line():
    data = generate_world(random.Random(3), users=12)
    text = database_text(model_tables(data)).decode("utf-8")
    assert json.loads(text) == data.model_dump(mode="json")
    lines = text.splitlines()
    assert len(lines) == 2 + sum(2 + len(records) for records in data.model_dump().values())
    assert lines[1] == '"products": {' and lines[-1] == "}"
