"""``tau-env generate --backend ray``: the gold replays over Ray tasks, the same set written,
and a broken task is still refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tau_env.cli.main import main
from tau_env.generation.verify import GenerationError, verify_folder


def _generate(out: Path, *extra: str) -> int:
    arguments = ["--domain", "telecom", "--seed", "4", "--tasks", "24", "--audit-sample", "0"]
    return main(["generate", *arguments, "--out", str(out), *extra])


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def test_ray__the_same_set_as_local_processes(ray, tmp_path):
    assert _generate(tmp_path / "local") == 0
    assert _generate(tmp_path / "ray", "--backend", "ray", "--workers", "3") == 0
    assert _files(tmp_path / "ray") == _files(tmp_path / "local")


def test_ray__a_task_failing_its_gold_replay_is_refused(ray, tmp_path):
    assert _generate(tmp_path) == 0
    folder = tmp_path / "domains" / "telecom"
    tasks = json.loads((folder / "tasks.json").read_text())
    broken = next(
        t
        for t in tasks
        if any(a["requestor"] == "user" for a in t["evaluation_criteria"]["actions"])
    )
    actions = broken["evaluation_criteria"]["actions"]
    actions.remove(next(a for a in reversed(actions) if a["requestor"] == "user"))
    (folder / "tasks.json").write_text(json.dumps(tasks))
    ids = [t["id"] for t in tasks]
    with pytest.raises(GenerationError, match=broken["id"]):
        verify_folder("telecom", tmp_path, ids, workers=2, backend="ray")
    verify_folder("telecom", tmp_path, [t for t in ids if t != broken["id"]], backend="ray")
