"""``tau-env generate --domain banking_knowledge``: the bank generator driven by the pipeline.

Families are the bank's product families (``everyday_checking``... ``profile``); ``test``
holds whole families never in ``train`` (``premier_checking``, ``travel_cards``). Every task
writes the customers and accounts it needs, so the world grows with the set by itself
(``--world-size`` is refused). The folder is the reference's bank layout (``db.json``,
``documents/``, ``prompts/``, ``tasks/task_*.json``) plus the bank's own discoverable tools
(``catalog.json``), credit cards (``cards.json``) and ``split_tasks.json``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tau_env.domains.banking_knowledge.builtin import BANK_FILES, builtin_prompts
from tau_env.domains.banking_knowledge.generator import generate, render_files
from tau_env.domains.banking_knowledge.generator.products import FAMILIES
from tau_env.domains.banking_knowledge.generator.tasks import FAMILY_KINDS
from tau_env.generation.drawn import Adapter, Drawn, Request, Take
from tau_env.generation.render import split_text

__all__ = ["ADAPTER"]


def _draw(request: Request, families: Sequence[str], wanted: int, take: Take) -> Drawn:
    total = sum(quota for f in families for _, quota in FAMILY_KINDS[f])
    bank = generate(request.seed, scale=wanted / total, verify=False, families=families)
    split_of = {i: name for name, ids in bank.splits.items() if name != "base" for i in ids}
    files = {"db.json": render_files(bank)[BANK_FILES["db"]].encode("utf-8")}
    for document in bank.documents:
        files[f"documents/{document['id']}.json"] = (json.dumps(document, indent=1) + "\n").encode()
    for name, text in builtin_prompts().items():
        files[f"prompts/{name}"] = text.encode("utf-8")
    files["catalog.json"] = (
        json.dumps([entry.model_dump() for entry in bank.catalog], indent=1) + "\n"
    ).encode()
    cards = {name: card.model_dump() for name, card in bank.cards.items()}
    files["cards.json"] = (json.dumps(cards, indent=1) + "\n").encode()
    for task in bank.tasks:
        take(dict(task), None)
    world_size = len(bank.raw_db.get("users", {}).get("data", {}))
    return Drawn(files=files, split_of=split_of, world_size=world_size)


def _write_tasks(
    folder: Path, tasks: Iterable[Mapping[str, Any]], splits: Mapping[str, list[str]]
) -> None:
    """One ``tasks/task_<split>_<n>.json`` per task (the reference's layout) and the splits."""
    (folder / "split_tasks.json").write_bytes(split_text(splits))
    (folder / "tasks").mkdir(exist_ok=True)
    for task in tasks:
        name = str(task["id"]).split("/", 1)[-1].replace("/", "_")
        text = json.dumps(task, indent=1) + "\n"
        (folder / "tasks" / f"task_{name}.json").write_bytes(text.encode("utf-8"))


def _family(task: Mapping[str, Any]) -> str:
    return str(((task.get("description") or {}).get("parameters") or {}).get("product"))


ADAPTER = Adapter(families=tuple(FAMILIES), family_of=_family, draw=_draw, write_tasks=_write_tasks)
"""The banking_knowledge domain's adapter."""
