"""Reading domain data: official files from a folder the user names, built-in ones from the package.

An official data folder is laid out like the reference's ``data/tau2``: each domain lives in
``<data_dir>/domains/<domain>/``. Every error names the file it concerns.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from tau_env.errors import DataError
from tau_env.state.database import Database, Snapshot
from tau_env.tasks.loading import parse_tasks, read_json, read_splits, read_text
from tau_env.tasks.model import Task

BUILTIN_FILES = {
    "db": "builtin_db.json",
    "user_db": "builtin_user_db.json",
    "tasks": "builtin_tasks.json",
    "splits": "builtin_split_tasks.json",
}
"""File names of built-in data in a domain package's ``data/`` folder.

They differ from the reference's names (``db.json``, ``tasks.json``...) on purpose: a file of
that name in this repository would look like a copy of the official data, which is never
shipped; these files are written by tau_env's own generators.
"""

__all__ = [
    "BUILTIN_FILES",
    "DomainData",
    "builtin_text",
    "builtin_toml",
    "load_builtin_data",
    "load_official_data",
    "load_official_folder",
    "official_folder",
    "official_guidelines",
    "read_data_file",
    "read_optional_text",
    "read_text",
]


@dataclass(frozen=True)
class DomainData:
    """What a loader reads: the policy, the two databases, the tasks and their splits.

    Attributes:
        policy: The policy text the agent receives.
        agent_snapshot: Parsed agent database.
        user_snapshot: Parsed user database, or None when the user has no tools.
        tasks: Every task of the data source, in file order.
        splits: Split name -> task ids.
        source: ``"built-in"`` or the folder the data came from (for messages).
        guidelines: User-simulation guidelines shipped with the data (official data only).
        solo_policy: The policy variant for No-User mode, where the data has one.
        tasks_file: The task file, named in errors about a task (None: `source` is named).
        splits_file: The split file, named in errors about a split (None: `source`).
        task_policy: Builds the policy of one task, for data whose policy depends on the task
            (banking's golden-documents variant); None: every task gets `policy`.
        extras: Parsed data only the domain's own code reads (banking: the knowledge base,
            the prompt templates); the core passes it through untouched.
    """

    policy: str
    agent_snapshot: Snapshot
    user_snapshot: Snapshot | None
    tasks: tuple[Task, ...]
    splits: Mapping[str, tuple[str, ...]]
    source: str
    guidelines: Mapping[str, str] = field(default_factory=dict)
    solo_policy: str | None = None
    tasks_file: str | None = None
    splits_file: str | None = None
    task_policy: Callable[[Task], str] | None = None
    extras: Mapping[str, Any] = field(default_factory=dict)


def official_folder(data_dir: Path, domain: str) -> Path:
    """``<data_dir>/domains/<domain>``, which must exist.

    Raises:
        DataError: The folder is missing.
    """
    folder = data_dir / "domains" / domain
    if not folder.is_dir():
        raise DataError(
            f"{folder}: domain folder not found (expected <data_dir>/domains/{domain}/)"
        )
    return folder


def read_optional_text(path: Path) -> str | None:
    """A text file's content, or None when the file does not exist."""
    return read_text(path) if path.is_file() else None


def read_data_file(path: Path) -> Any:
    """A JSON or TOML file's content, by suffix.

    Raises:
        DataError: The file is missing or malformed.
    """
    if path.suffix == ".toml":
        text = read_text(path)
        try:
            return tomllib.loads(text)
        except (ValueError, RecursionError) as error:  # TOMLDecodeError is a ValueError
            raise DataError(f"{path}: invalid TOML: {error}") from None
    return read_json(path)


def _snapshot(db_type: type[Database], raw: Any, source: str) -> Any:
    if not isinstance(raw, Mapping):
        raise DataError(f"{source}: expected an object at the top level")
    if not raw:  # every field of some schemas has a default: an empty file would load as empty
        raise DataError(f"{source}: the database is empty")
    return db_type.load_snapshot(raw, source=source)


def load_official_data(
    folder: Path,
    *,
    agent_db: type[Database],
    agent_db_file: str,
    user_db: type[Database] | None = None,
    user_db_file: str | None = None,
    policy: str,
    tasks_file: str = "tasks.json",
    splits_file: str = "split_tasks.json",
    guidelines: Mapping[str, str] | None = None,
    solo_policy: str | None = None,
) -> DomainData:
    """Read the standard files of an official domain folder.

    Args:
        folder: The domain folder (see `official_folder`).
        agent_db: Database class of the agent side.
        agent_db_file: Its file name (``db.json``, ``db.toml``).
        user_db: Database class of the user side, if any.
        user_db_file: Its file name.
        policy: The policy text (domains assemble it from one or more files).
        tasks_file: The task list.
        splits_file: The split file; when absent, the only split is ``base`` = every task.
        guidelines: User-simulation guidelines from the data folder, by name.
        solo_policy: The No-User policy variant, when the data has one.
    """
    path = folder / agent_db_file
    agent_snapshot = _snapshot(agent_db, read_data_file(path), str(path))
    user_snapshot = None
    if user_db is not None and user_db_file is not None:
        path = folder / user_db_file
        user_snapshot = _snapshot(user_db, read_data_file(path), str(path))
    tasks_path = folder / tasks_file
    tasks = parse_tasks(read_json(tasks_path), source=str(tasks_path))
    split_path = folder / splits_file
    splits = read_splits(split_path) if split_path.exists() else {"base": [t.id for t in tasks]}
    return DomainData(
        policy=policy,
        agent_snapshot=agent_snapshot,
        user_snapshot=user_snapshot,
        tasks=tuple(tasks),
        splits={name: tuple(ids) for name, ids in splits.items()},
        source=str(folder),
        guidelines=dict(guidelines or {}),
        solo_policy=solo_policy,
        tasks_file=str(tasks_path),
        splits_file=str(split_path) if split_path.exists() else None,
    )


def load_official_folder(
    data_dir: Path,
    domain: str,
    agent_db: type[Database],
    user_db: type[Database] | None = None,
) -> DomainData:
    """The reference's usual domain folder ``<data_dir>/domains/<domain>/``.

    ``db.json`` (and ``user_db.json`` when there is a `user_db`), ``policy.md`` (and the
    No-User variant ``policy_solo.md`` where the folder has one, as mock's does), the tasks and
    splits, and the data folder's user-simulation guidelines.
    """
    folder = official_folder(data_dir, domain)
    return load_official_data(
        folder,
        agent_db=agent_db,
        agent_db_file="db.json",
        user_db=user_db,
        user_db_file="user_db.json" if user_db is not None else None,
        policy=read_text(folder / "policy.md"),
        guidelines=official_guidelines(data_dir),
        solo_policy=read_optional_text(folder / "policy_solo.md"),
    )


def official_guidelines(data_dir: Path) -> dict[str, str]:
    """The reference's user-simulation guidelines, when the data folder has them."""
    folder = data_dir / "user_simulator"
    found = {}
    for name in ("simulation_guidelines.md", "simulation_guidelines_tools.md"):
        if (folder / name).is_file():
            found[name.removesuffix(".md")] = read_text(folder / name)
    return found


def builtin_text(package: str, name: str) -> str:
    """A text file shipped inside a domain package."""
    return resources.files(package).joinpath(name).read_text(encoding="utf-8")


def builtin_toml(package: str, name: str) -> dict[str, Any]:
    """A TOML table shipped inside a package, next to the module that reads it (once, at import)."""
    return tomllib.loads(builtin_text(package, name))


def load_builtin_data(
    package: str,
    *,
    agent_db: type[Database],
    user_db: type[Database] | None = None,
    policy_file: str = "policy.md",
) -> DomainData:
    """Read the built-in data a domain package ships in its ``data/`` folder.

    Expects the `BUILTIN_FILES` in ``data/`` (the user database only when there is one).
    """
    import json

    def load(name: str) -> Any:
        return json.loads(builtin_text(package, f"data/{name}"))

    source = f"built-in {package}"
    names = BUILTIN_FILES
    agent_snapshot = _snapshot(agent_db, load(names["db"]), f"{source}/data/{names['db']}")
    user_snapshot = None
    if user_db is not None:
        path = f"{source}/data/{names['user_db']}"
        user_snapshot = _snapshot(user_db, load(names["user_db"]), path)
    tasks = parse_tasks(load(names["tasks"]), source=f"{source}/data/{names['tasks']}")
    splits = load(names["splits"])
    return DomainData(
        policy=builtin_text(package, policy_file),
        agent_snapshot=agent_snapshot,
        user_snapshot=user_snapshot,
        tasks=tuple(tasks),
        splits={name: tuple(ids) for name, ids in splits.items()},
        source="built-in",
        tasks_file=f"{source}/data/{names['tasks']}",
        splits_file=f"{source}/data/{names['splits']}",
    )
