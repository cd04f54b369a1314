"""A large set is verified a chunk at a time: each chunk a data folder the loader reads as any
``--data-dir``, the same tasks byte for byte, and a failing task is found in any chunk."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tau_env.cli.main import main
from tau_env.domain import load_domain
from tau_env.generation.verify import GenerationError, _chunks, verify_folder


def _generate(out: Path, domain: str, tasks: int) -> list[str]:
    arguments = ["--domain", domain, "--seed", "2", "--tasks", str(tasks), "--audit-sample", "0"]
    assert main(["generate", *arguments, "--out", str(out)]) == 0
    return json.loads((out / "domains" / domain / "split_tasks.json").read_text())["base"]


def test_chunks__each_chunk_loads_its_share_of_the_set_as_written(tmp_path):
    ids = _generate(tmp_path, "airline", 23)
    whole = {task.id: task for task in load_domain("airline", tmp_path).tasks}
    chunks = _chunks("airline", tmp_path, ids, 10)
    assert chunks is not None and len(chunks) == 3
    loaded = [load_domain("airline", chunk) for chunk in chunks]
    assert [t.id for domain in loaded for t in domain.tasks] == ids
    assert all(t == whole[t.id] for domain in loaded for t in domain.tasks)
    assert [len(domain.split(None)) for domain in loaded] == [10, 10, 3]


def test_chunks__a_set_not_written_a_task_a_line_is_verified_whole(tmp_path):
    ids = _generate(tmp_path, "banking_knowledge", 12)
    assert _chunks("banking_knowledge", tmp_path, ids, 5) is None
    verify_folder("banking_knowledge", tmp_path, ids, chunk=5)


@pytest.mark.parametrize("workers", [1, 2])
def test_verify__a_broken_task_in_a_later_chunk_is_found(tmp_path, workers):
    ids = _generate(tmp_path, "telecom", 24)
    verify_folder("telecom", tmp_path, ids, workers=workers, chunk=5)
    folder = tmp_path / "domains" / "telecom"
    tasks = json.loads((folder / "tasks.json").read_text())
    broken = set()
    for task in tasks[15:]:  # in the fourth and fifth chunks: each customer's fix left out
        actions = task["evaluation_criteria"]["actions"]
        fixes = [a for a in actions if a["requestor"] == "user"]
        if fixes:
            actions.remove(fixes[-1])
            broken.add(task["id"])
    lines = ["[", ",\n".join(json.dumps(t, ensure_ascii=False) for t in tasks), "]"]
    (folder / "tasks.json").write_text("\n".join(lines) + "\n")
    with pytest.raises(GenerationError, match=r"gold replay scored 0\.0") as raised:
        verify_folder("telecom", tmp_path, ids, workers=workers, chunk=5)
    assert any(task_id in str(raised.value) for task_id in broken)
    assert not (tmp_path / ".chunks").exists()  # the chunk folders go once played
