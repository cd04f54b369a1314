"""The built-in bank's discoverable tools: our own names and documentation over shared behaviours.

The tools are data (`catalog.toml`, next to this module): each entry points at one of the
domain's behaviours (`BEHAVIOURS`), so the code that runs is the same as for the reference's
bank; the names the knowledge base uses, the suffixes and every word of documentation are
Larkspur Bank's own. `TOOLS` maps a behaviour key to the public name, for the documents and the
gold plans.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from tau_env.data_files import builtin_toml
from tau_env.domains.banking_knowledge.data_model import CatalogEntry

__all__ = ["TOOLS", "catalog"]


def _read_table() -> tuple[CatalogEntry, ...]:
    """`catalog.toml`'s tools in file order, each shared parameter name replaced by its list."""
    table = builtin_toml(__package__, "catalog.toml")
    shared: dict[str, list[dict[str, Any]]] = table["shared"]
    return tuple(
        CatalogEntry.model_validate(
            {
                "side": "agent",
                **tool,
                "parameters": [
                    doc
                    for parameter in tool["parameters"]
                    for doc in (shared[parameter] if isinstance(parameter, str) else [parameter])
                ],
            }
        )
        for tool in table["tools"]
    )


_ENTRIES = _read_table()

TOOLS = MappingProxyType({entry.behaviour: entry.name for entry in _ENTRIES})
"""Behaviour key -> the public name Larkspur Bank's documents use."""


def catalog() -> tuple[CatalogEntry, ...]:
    """The catalogue entries, agent tools first (as `bank_data` expects)."""
    return tuple(sorted(_ENTRIES, key=lambda entry: entry.side != "agent"))
