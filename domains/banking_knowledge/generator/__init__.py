"""The built-in bank, Larkspur Bank: products, knowledge base, customers and verified tasks.

``generate(seed)`` draws the products (`products.py`), writes their documents and the
procedures that name the discoverable tools (`documents_*.py`, tool names in `catalog.py`),
then draws every family's tasks (`kinds_*.py`); each task writes the customers and records it
needs into the database (`world.py`) and its gold plan follows the documents. Every task is
checked by gold replay (`verify.py`), the split keeps whole families out of train
(`tasks.py`) and the tasks get plain ids (`tau_env.domains.opaque_ids`). The package ships
the result for `BUILTIN_SEED` in ``domains/banking_knowledge/data/``; the repository's
``.ci/rewrite-builtin-data`` rewrites it, and a test proves the shipped files unchanged;
``tau-env generate`` (`tau_env.generation`) writes sets of any size.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tau_env.domain import DomainData
from tau_env.domains.banking_knowledge.builtin import BANK_FILES, bank_from_parts, builtin_prompts
from tau_env.domains.banking_knowledge.data_model import CardProduct, CatalogEntry
from tau_env.domains.banking_knowledge.generator.catalog import catalog
from tau_env.domains.banking_knowledge.generator.context import Context
from tau_env.domains.banking_knowledge.generator.documents_extra import write_extra_documents
from tau_env.domains.banking_knowledge.generator.documents_general import write_general_documents
from tau_env.domains.banking_knowledge.generator.documents_procedures import (
    write_procedure_documents,
)
from tau_env.domains.banking_knowledge.generator.documents_products import write_product_documents
from tau_env.domains.banking_knowledge.generator.library import Library
from tau_env.domains.banking_knowledge.generator.people import People
from tau_env.domains.banking_knowledge.generator.products import FAMILIES, draw_bank
from tau_env.domains.banking_knowledge.generator.tasks import draw_tasks, split_tasks
from tau_env.domains.banking_knowledge.generator.verify import builtin_domain, verify_tasks
from tau_env.domains.banking_knowledge.generator.world import Ledger
from tau_env.domains.opaque_ids import opaque_ids, renamed

__all__ = ["BUILTIN_SEED", "GeneratedBank", "generate", "render_files", "write_files"]

BUILTIN_SEED = 20251114
"""The seed of the data shipped in ``domains/banking_knowledge/data/``."""


@dataclass(frozen=True)
class GeneratedBank:
    """A generated bank with its verified tasks.

    Attributes:
        raw_db: The database in the reference's layout.
        tasks: Task objects with plain ids (``banking_knowledge/<split>/<NNNN>``; kind and
            product in each task's description), in the order of the ``base`` split.
        splits: ``base``, ``train`` and ``test`` task ids.
        documents: The knowledge base, in the order written.
        catalog: The discoverable tools.
        cards: The credit card products by name.
    """

    raw_db: dict[str, Any]
    tasks: list[dict[str, Any]]
    splits: dict[str, list[str]]
    documents: list[dict[str, str]]
    catalog: tuple[CatalogEntry, ...]
    cards: dict[str, CardProduct]

    def domain_data(self) -> DomainData:
        """The bank as the loader would read it from the written files."""
        return bank_from_parts(
            raw_db=self.raw_db,
            tasks=self.tasks,
            splits=self.splits,
            documents=self.documents,
            catalog=self.catalog,
            cards=self.cards,
            source="generated banking_knowledge",
        )


def generate(
    seed: int = BUILTIN_SEED,
    *,
    scale: float = 1.0,
    verify: bool = True,
    families: Sequence[str] | None = None,
) -> GeneratedBank:
    """Generate the bank and its tasks; the same arguments always give the same result.

    Args:
        seed: Seeds every random draw.
        scale: Multiplies the number of tasks drawn per kind.
        verify: Replay every task's gold plan (see `verify_tasks`).
        families: The product families to draw tasks of (None: all of them).

    Raises:
        GenerationError: A drawn task fails its gold replay (a generator bug).
    """
    rng = random.Random(seed)
    bank = draw_bank(rng)
    library = Library()
    write_product_documents(library, bank)
    write_procedure_documents(library)
    write_general_documents(library, rng)
    write_extra_documents(library, bank, rng)
    context = Context(rng, bank, Ledger(rng), People(rng))
    texts = {doc_id: doc["content"] for doc_id, doc in library.documents.items()}
    prompts = builtin_prompts()  # every retrieval variant's policy starts with the header
    policy = (
        prompts["components/policy_header.md"] + prompts["components/additional_instructions.md"]
    )
    tasks = draw_tasks(context, scale, texts, policy, families or FAMILIES)
    for task in tasks:
        library.require(*task["required_documents"])
    new_ids, splits = opaque_ids("banking_knowledge", split_tasks([t["id"] for t in tasks]), seed)
    generated = GeneratedBank(
        raw_db=context.ledger.raw(),
        tasks=renamed(tasks, new_ids, splits["base"]),
        splits=splits,
        documents=list(library.documents.values()),
        catalog=catalog(),
        cards={card.name: CardProduct(rates=dict(card.rates)) for card in bank.cards},
    )
    if verify:
        verify_tasks(builtin_domain(generated.domain_data()))
    return generated


def _lines(items: list[str], opening: str, closing: str) -> str:
    return opening + "\n" + ",\n".join(items) + "\n" + closing


def render_files(generated: GeneratedBank) -> dict[str, str]:
    """The data files' text: one record, task or document per line; small files indented."""
    tables = []
    for name, table in generated.raw_db.items():
        records = [
            f"{json.dumps(key)}: {json.dumps(record)}" for key, record in table["data"].items()
        ]
        body = _lines(records, "{", "}") if records else "{}"
        tables.append(
            f'{json.dumps(name)}: {{"notes": {json.dumps(table["notes"])}, "data": {body}}}'
        )
    catalog_entries = [entry.model_dump() for entry in generated.catalog]
    cards = {name: card.model_dump() for name, card in generated.cards.items()}
    return {
        BANK_FILES["db"]: _lines(tables, "{", "}") + "\n",
        BANK_FILES["tasks"]: _lines([json.dumps(t) for t in generated.tasks], "[", "]") + "\n",
        BANK_FILES["splits"]: json.dumps(generated.splits, indent=1) + "\n",
        BANK_FILES["documents"]: _lines([json.dumps(d) for d in generated.documents], "[", "]")
        + "\n",
        BANK_FILES["catalog"]: json.dumps(catalog_entries, indent=1) + "\n",
        BANK_FILES["cards"]: json.dumps(cards, indent=1) + "\n",
    }


def write_files(folder: Path, generated: GeneratedBank) -> None:
    """Write the data files into `folder` (the prompts there are left as they are)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in render_files(generated).items():
        (folder / name).write_text(text, encoding="utf-8")
