"""The built-in bank (Larkspur Bank): reading the files its generator wrote into ``data/``.

Files (all written by the repository's ``.ci/rewrite-builtin-data``, except the
prompts, which are hand-written policy text):

- ``builtin_db.json``: the database, in the reference's layout;
- ``builtin_tasks.json``: the tasks, in the reference's per-task layout;
- ``builtin_split_tasks.json``: ``base``, ``train`` and ``test`` (test families absent from
  train);
- ``builtin_documents.json``: the knowledge base (``{"id", "title", "content"}`` each);
- ``builtin_catalog.json``: the discoverable tools (names and documentation);
- ``builtin_cards.json``: the credit card products and their reward rates;
- ``builtin_prompts/``: one template per retrieval variant and ``components/``, like the
  reference's ``prompts/`` folder.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from importlib import resources
from typing import Any

from tau_env.data_files import BUILTIN_FILES
from tau_env.domain import DomainData
from tau_env.domains.banking_knowledge.data_model import CardProduct, CatalogEntry
from tau_env.domains.banking_knowledge.loading import bank_data
from tau_env.domains.banking_knowledge.retrieval.knowledge import Document, KnowledgeBase
from tau_env.errors import DataError

__all__ = ["BANK_FILES", "PROMPTS_FOLDER", "bank_from_parts", "builtin_prompts", "read_builtin"]

BANK_FILES = {
    "db": BUILTIN_FILES["db"],
    "tasks": BUILTIN_FILES["tasks"],
    "splits": BUILTIN_FILES["splits"],
    "documents": "builtin_documents.json",
    "catalog": "builtin_catalog.json",
    "cards": "builtin_cards.json",
}
"""The generated files of the built-in bank, in ``data/``."""

PROMPTS_FOLDER = "builtin_prompts"
"""Folder of the built-in bank's prompt templates, in ``data/``."""

_PACKAGE = "tau_env.domains.banking_knowledge"
_SOURCE = "built-in banking_knowledge"


def builtin_prompts() -> dict[str, str]:
    """The prompt templates by path (``bm25.md``, ``components/policy_header.md``...)."""
    folder = resources.files(_PACKAGE).joinpath("data", PROMPTS_FOLDER)
    found: dict[str, str] = {}
    for prefix, place in (("", folder), ("components/", folder.joinpath("components"))):
        for item in sorted(place.iterdir(), key=lambda entry: entry.name):
            if item.name.endswith(".md"):
                found[prefix + item.name] = item.read_text(encoding="utf-8")
    return found


def bank_from_parts(
    *,
    raw_db: Mapping[str, Any],
    tasks: Sequence[Mapping[str, Any]],
    splits: Mapping[str, Sequence[str]],
    documents: Iterable[Mapping[str, Any]],
    catalog: Sequence[CatalogEntry],
    cards: Mapping[str, CardProduct],
    source: str = _SOURCE,
) -> DomainData:
    """The built-in bank from parsed parts (the files, or the generator's output)."""
    knowledge = KnowledgeBase.of(
        (Document.model_validate(doc) for doc in documents), source=f"{source}/documents"
    )
    tasks_file = f"{source}/data/{BANK_FILES['tasks']}"
    return bank_data(
        raw_db=raw_db,
        catalog=catalog,
        knowledge=knowledge,
        prompts=builtin_prompts(),
        raw_tasks=[(tasks_file, dict(task)) for task in tasks],
        splits=splits,
        source="built-in",
        db_source=f"{source}/data/{BANK_FILES['db']}",
        tasks_file=tasks_file,
        card_products=cards,
    )


def _load(name: str) -> Any:
    path = f"data/{BANK_FILES[name]}"
    try:
        return json.loads(resources.files(_PACKAGE).joinpath(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise DataError(f"{_SOURCE}/{path}: {error}") from None


def read_builtin() -> DomainData:
    """The built-in bank, from the package's ``data/`` files."""
    catalog = [CatalogEntry.model_validate(entry) for entry in _load("catalog")]
    cards = {name: CardProduct.model_validate(card) for name, card in _load("cards").items()}
    return bank_from_parts(
        raw_db=_load("db"),
        tasks=_load("tasks"),
        splits=_load("splits"),
        documents=_load("documents"),
        catalog=catalog,
        cards=cards,
    )
