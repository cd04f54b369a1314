"""A writable data folder holding the built-in mock files in the official layout."""

from __future__ import annotations

import json
import shutil
from importlib import resources
from pathlib import Path

import pytest

import tau_env.domain
from tau_env.data_files import BUILTIN_FILES


@pytest.fixture
def mock_folder(tmp_path: Path) -> Path:
    """``<tmp>/domains/mock/`` holding the built-in files in the official layout."""
    package = resources.files("tau_env.domains.mock")
    folder = tmp_path / "domains" / "mock"
    folder.mkdir(parents=True)
    official_names = {
        "db": "db.json",
        "user_db": "user_db.json",
        "tasks": "tasks.json",
        "splits": "split_tasks.json",
    }
    for key, name in official_names.items():
        (folder / name).write_text(package.joinpath("data", BUILTIN_FILES[key]).read_text())
    (folder / "policy.md").write_text(package.joinpath("policy.md").read_text())
    yield tmp_path
    tau_env.domain.clear_domain_cache()
    shutil.rmtree(tmp_path, ignore_errors=True)


def edit_tasks(data_dir: Path, change) -> None:
    """Rewrite tasks.json through `change(tasks)`."""
    path = data_dir / "domains" / "mock" / "tasks.json"
    tasks = json.loads(path.read_text())
    change(tasks)
    path.write_text(json.dumps(tasks))
