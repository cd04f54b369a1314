"""Writable copies of the official data folders, for tests that corrupt them (never committed).

`copy_domain` lays out ``<tmp>/domains/<folder>/`` from the official data with the task list
cut to a few tasks (telecom's 14 MB task file would make every case slow) and a split file that
names exactly those. Edits go through small helpers so each test reads as the defect it plants.
"""

from __future__ import annotations

import importlib
import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tau_env.errors import DataError
from tests.reliability.tally import count

KEEP_TASKS = 12


@dataclass(frozen=True)
class Layout:
    """The files an official domain folder must hold, for one registered domain.

    Attributes:
        domain: Registered domain name.
        folder: Its folder under ``<data_dir>/domains/``.
        required: Files the loader cannot do without.
        databases: The database files (agent first), JSON or TOML.
        tools_module: Module holding the agent tools (for names of unregistered helpers).
    """

    domain: str
    folder: str
    required: tuple[str, ...]
    databases: tuple[str, ...]
    tools_module: str


LAYOUTS = {
    layout.domain: layout
    for layout in (
        Layout(
            "mock",
            "mock",
            ("db.json", "user_db.json", "tasks.json", "policy.md"),
            ("db.json", "user_db.json"),
            "tau_env.domains.mock.tools",
        ),
        Layout(
            "airline",
            "airline",
            ("db.json", "tasks.json", "policy.md"),
            ("db.json",),
            "tau_env.domains.airline.tools",
        ),
        Layout(
            "retail",
            "retail",
            ("db.json", "tasks.json", "policy.md"),
            ("db.json",),
            "tau_env.domains.retail.order_tools",
        ),
        Layout(
            "telecom",
            "telecom",
            ("db.toml", "user_db.toml", "tasks.json", "main_policy.md", "tech_support_manual.md"),
            ("db.toml", "user_db.toml"),
            "tau_env.domains.telecom.tools",
        ),
        Layout(
            "telecom-workflow",
            "telecom",
            ("db.toml", "user_db.toml", "tasks.json", "main_policy.md", "tech_support_workflow.md"),
            ("db.toml", "user_db.toml"),
            "tau_env.domains.telecom.tools",
        ),
    )
}


def copy_domain(official: Path, layout: Layout, target: Path) -> Path:
    """Copy a domain folder of `official` under ``target/domains/``, with `KEEP_TASKS` tasks.

    Returns:
        `target`, to pass as ``data_dir``.
    """
    source = official / "domains" / layout.folder
    folder = target / "domains" / layout.folder
    folder.mkdir(parents=True)
    for path in source.iterdir():
        if path.name not in ("tasks.json", "split_tasks.json"):
            shutil.copyfile(path, folder / path.name)
    tasks = json.loads((source / "tasks.json").read_text())[:KEEP_TASKS]
    (folder / "tasks.json").write_text(json.dumps(tasks))
    (folder / "split_tasks.json").write_text(json.dumps({"base": [t["id"] for t in tasks]}))
    return target


def domain_folder(data_dir: Path, layout: Layout) -> Path:
    """``<data_dir>/domains/<folder>``."""
    return data_dir / "domains" / layout.folder


def read_tasks(data_dir: Path, layout: Layout) -> list[dict[str, Any]]:
    """The (cut) task list of a copied folder."""
    return json.loads((domain_folder(data_dir, layout) / "tasks.json").read_text())


def write_tasks(data_dir: Path, layout: Layout, tasks: list[Any]) -> None:
    """Replace the task list of a copied folder (the split file keeps naming the old ids)."""
    (domain_folder(data_dir, layout) / "tasks.json").write_text(json.dumps(tasks))


def task_with_actions(tasks: list[dict[str, Any]]) -> int:
    """Index of the first task with gold actions."""
    return next(
        i for i, t in enumerate(tasks) if (t.get("evaluation_criteria") or {}).get("actions")
    )


def unregistered_helpers(layout: Layout) -> list[str]:
    """Real functions of the domain's tool module that no task may call: a private helper and a
    public function that is not registered (falls back to invented names when there is none)."""
    module = importlib.import_module(layout.tools_module)
    functions = [
        name
        for name, value in vars(module).items()
        if callable(value)
        and getattr(value, "__module__", None) == module.__name__
        and not isinstance(value, type)
        and not hasattr(value, "__tau_function_spec__")
    ]
    private = [n for n in functions if n.startswith("_")][:1] or ["_helper"]
    public = [n for n in functions if not n.startswith("_")][:1] or ["helper"]
    return private + public


def forget_loaded_data() -> None:
    """Drop the per-process caches of parsed data, so an edited folder is read again.

    Data is read once per process by design (keyed by folder); tests that edit a folder in
    place between loads must clear the caches: the domain cache, and telecom's cache of the
    databases and tasks that its two variants share.
    """
    import tau_env.domain
    from tau_env.domains import telecom

    tau_env.domain.clear_domain_cache()
    telecom._official_common.cache_clear()


def refused(load: Callable[..., object], layout: Layout, folder: Path, *fragments: str) -> str:
    """``load(domain, data_dir=folder)`` must fail with a DataError naming every fragment."""
    forget_loaded_data()
    with pytest.raises(DataError) as raised:
        load(layout.domain, data_dir=folder)
    text = str(raised.value)
    for fragment in fragments:
        assert fragment in text, f"{fragment!r} missing from: {text}"
    count("hostile data cases refused", layout.domain)
    return text
