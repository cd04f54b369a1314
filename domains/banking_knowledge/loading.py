"""Reading a bank: database, discoverable-tool catalogue, knowledge base, prompts and tasks.

`bank_data` assembles already-parsed parts into `DomainData`; `read_official` reads the
reference's folder (``<data_dir>/domains/banking_knowledge/``) into those parts. A built-in
bank written by a generator supplies the same parts from its own files (see the README).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tau_env.data_files import official_folder, official_guidelines, read_data_file, read_text
from tau_env.domain import DomainData
from tau_env.domains.banking_knowledge.data_model import (
    BankingDB,
    CardProduct,
    CatalogEntry,
    to_snapshot_data,
)
from tau_env.domains.banking_knowledge.discoverable import check_catalog, reference_catalog
from tau_env.domains.banking_knowledge.retrieval.knowledge import KnowledgeBase, load_documents
from tau_env.domains.banking_knowledge.user_tools import USER_TOOLS
from tau_env.errors import DataError
from tau_env.tasks.loading import parse_tasks, read_json, read_splits
from tau_env.tasks.model import Task

__all__ = ["bank_data", "read_log_allowlist", "read_official"]

_USER_TOOL_NAMES = frozenset(function.__name__ for function in USER_TOOLS)


def read_log_allowlist(raw_task: Mapping[str, Any]) -> list[str]:
    """The discoverable tools the gold plan calls, in first-call order.

    The reference's ``_derive_read_log_allowlist``: calls of these tools are logged even when
    they only read.
    """
    criteria = raw_task.get("evaluation_criteria") or {}
    names: dict[str, None] = {}
    for action in criteria.get("actions") or []:
        if action.get("name") == "call_discoverable_agent_tool":
            name = (action.get("arguments") or {}).get("agent_tool_name")
            if name:
                names[str(name)] = None
    return list(names)


def _with_allowlist(raw_task: dict[str, Any]) -> dict[str, Any]:
    """The task with a setup call that gives the episode its read-log allowlist.

    The reference passes the allowlist to every environment it builds for the task; here it
    is part of the task's initial state, so the live world, the gold world and any replay get
    it the same way.
    """
    allowlist = read_log_allowlist(raw_task)
    if not allowlist:
        return raw_task
    state = dict(raw_task.get("initial_state") or {})
    setup = {
        "env_type": "assistant",
        "func_name": "set_read_log_allowlist",
        "arguments": {"tool_names": allowlist},
    }
    state["initialization_actions"] = [*(state.get("initialization_actions") or []), setup]
    return {**raw_task, "initial_state": state}


def bank_data(
    *,
    raw_db: Mapping[str, Any],
    catalog: Sequence[CatalogEntry],
    knowledge: KnowledgeBase,
    prompts: Mapping[str, str],
    raw_tasks: Iterable[tuple[str, dict[str, Any]]],
    splits: Mapping[str, Sequence[str]] | None,
    source: str,
    db_source: str,
    guidelines: Mapping[str, str] | None = None,
    tasks_file: str | None = None,
    card_products: Mapping[str, CardProduct] | None = None,
) -> DomainData:
    """A bank as `DomainData` (policy and retrieval tools are added per variant).

    Args:
        raw_db: The database in the reference's layout (``{table: {data, notes}}``).
        catalog: The discoverable tools of this bank.
        knowledge: Its documents.
        prompts: Prompt templates by path under ``prompts/`` (``"bm25.md"``,
            ``"components/policy_header.md"``...).
        raw_tasks: (file, task object) pairs, in task order.
        splits: Split name -> task ids (None: one split ``base`` with every task).
        source: The data source, for messages.
        db_source: The database file, for messages.
        guidelines: User-simulation guidelines shipped with the data.
        tasks_file: Named in errors about a task.
        card_products: The bank's own credit cards (None: the reference's 13).

    Raises:
        DataError: Any part is malformed; the message names the file and field.
    """
    entries = tuple(catalog)
    check_catalog(entries, source=source)
    catalog_by_name = {entry.name: entry for entry in entries}
    snapshot = BankingDB.load_snapshot(
        to_snapshot_data(raw_db, catalog_by_name, source=db_source, card_products=card_products),
        source=db_source,
    )
    tasks: list[Task] = []
    required: dict[str, tuple[str, ...]] = {}
    for file, raw in raw_tasks:
        if not isinstance(raw, dict):
            raise DataError(f"{file}: expected a task object")
        (task,) = parse_tasks([_with_allowlist(raw)], source=file)
        if task.id in required:
            raise DataError(f"{file}: task {task.id!r}: field 'id': duplicate task id")
        unknown = sorted(set(task.user_tools or ()) - _USER_TOOL_NAMES)
        if unknown:
            raise DataError(
                f"{file}: task {task.id!r}: field 'user_tools': no user tool {unknown[0]!r}"
            )
        documents = raw.get("required_documents") or []
        if not isinstance(documents, list) or not all(isinstance(d, str) for d in documents):
            raise DataError(f"{file}: task {task.id!r}: field 'required_documents': expected ids")
        required[task.id] = tuple(documents)
        tasks.append(task)
    ids = [task.id for task in tasks]
    return DomainData(
        policy="",
        agent_snapshot=snapshot,
        user_snapshot=None,
        tasks=tuple(tasks),
        splits={name: tuple(members) for name, members in (splits or {"base": ids}).items()},
        source=source,
        guidelines=dict(guidelines or {}),
        tasks_file=tasks_file,
        extras={
            "knowledge_base": knowledge,
            "prompts": dict(prompts),
            "required_documents": required,
        },
    )


def read_prompts(folder: Path) -> dict[str, str]:
    """Every ``*.md`` of a prompts folder and its ``components/`` subfolder, by relative path."""
    if not folder.is_dir():
        raise DataError(f"{folder}: prompts folder not found")
    found = {path.name: read_text(path) for path in sorted(folder.glob("*.md"))}
    components = folder / "components"
    for path in sorted(components.glob("*.md")):
        found[f"components/{path.name}"] = read_text(path)
    return found


def read_official(data_dir: Path) -> DomainData:
    """The reference's bank: ``db.json``, ``documents/``, ``prompts/``, ``tasks/task_*.json``.

    ``tasks.json`` (a stale aggregate the reference never reads) and ``tasks_voice.json`` are
    ignored. The discoverable tools are the reference's (`reference_catalog`), unless the
    folder has its own: a bank written by ``tau-env generate`` adds ``catalog.json`` (its
    discoverable tools), ``cards.json`` (its credit cards) and ``split_tasks.json``.
    """
    folder = official_folder(data_dir, "banking_knowledge")
    db_path = folder / "db.json"
    raw_db = read_data_file(db_path)
    if not isinstance(raw_db, dict):
        raise DataError(f"{db_path}: expected an object at the top level")
    task_folder = folder / "tasks"
    if not task_folder.is_dir():
        raise DataError(f"{task_folder}: tasks folder not found")
    raw_tasks = [(str(path), read_json(path)) for path in sorted(task_folder.glob("task_*.json"))]
    if not raw_tasks:
        raise DataError(f"{task_folder}: no task_*.json file")
    catalog, cards = _own_products(folder)
    split_path = folder / "split_tasks.json"
    return bank_data(
        raw_db=raw_db,
        catalog=catalog,
        knowledge=load_documents(folder / "documents"),
        prompts=read_prompts(folder / "prompts"),
        raw_tasks=raw_tasks,
        splits=read_splits(split_path) if split_path.is_file() else None,
        card_products=cards,
        source=str(folder),
        db_source=str(db_path),
        guidelines=official_guidelines(data_dir),
        tasks_file=str(task_folder),
    )


def _own_products(folder: Path) -> tuple[tuple[CatalogEntry, ...], dict[str, CardProduct] | None]:
    """The folder's discoverable tools and credit cards (a generated bank), else the reference's.

    Raises:
        DataError: ``catalog.json`` or ``cards.json`` is malformed.
    """
    catalog_path, cards_path = folder / "catalog.json", folder / "cards.json"
    if not catalog_path.is_file():
        return reference_catalog(), None
    try:
        catalog = tuple(CatalogEntry.model_validate(e) for e in read_json(catalog_path))
        cards = None
        if cards_path.is_file():
            raw_cards = read_json(cards_path)
            cards = {str(n): CardProduct.model_validate(c) for n, c in raw_cards.items()}
    except (ValueError, TypeError, AttributeError) as error:
        raise DataError(f"{folder}: catalog.json or cards.json malformed: {error}") from None
    return catalog, cards
