"""Lookups the behaviours share: a record that must exist, answered for when it does not."""

from __future__ import annotations

from typing import Any

from tau_env.domains.banking_knowledge.data_model import Row
from tau_env.domains.banking_knowledge.discoverable.base import Answer
from tau_env.domains.banking_knowledge.lookups import row
from tau_env.state import Table

__all__ = ["found"]


def found(table: Table[Row], key: str, what: str) -> dict[str, Any]:
    """The record `key` of `table` (shared: read only).

    Raises:
        Answer: ``Error: <what> '<key>' not found.`` when there is none (the behaviour's
            answer, as the reference's methods return it).
    """
    record = row(table, key)
    if record is None:
        raise Answer(f"Error: {what} '{key}' not found.")
    return record
