"""Small text helpers shared by the behaviours (the reference's recurring phrasings)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tau_env.data_files import builtin_toml
from tau_env.domains.banking_knowledge.constants import TODAY_TEXT
from tau_env.domains.banking_knowledge.data_model import BankingDB
from tau_env.domains.banking_knowledge.discoverable.base import name_of
from tau_env.domains.banking_knowledge.lookups import is_empty_result, query_by

__all__ = ["executed", "history", "result", "title"]

_RESULTS: Mapping[str, str] = builtin_toml(__package__, "results.toml")
"""Result key -> the text a behaviour answers when it succeeds (``results.toml``)."""


def result(key: str, **values: Any) -> str:
    """The result text `key` of ``results.toml`` with `values` (and ``today``) filled in."""
    return _RESULTS[key].format(today=TODAY_TEXT, **values)


def title(code: str) -> str:
    """``fee_refund`` -> ``Fee Refund``."""
    return code.replace("_", " ").title()


def executed(db: BankingDB, key: str, first_line: str) -> list[str]:
    """The opening lines many results share: a sentence, a blank line, ``Executed: <name>``."""
    return [first_line, "", f"Executed: {name_of(db, key)}"]


def history(
    db: BankingDB,
    key: str,
    first_line: str,
    intro: str,
    table: str,
    field: str,
    value: str,
    empty: str,
) -> str:
    """A read result: the opening lines, an intro, then the matching records or `empty`."""
    found = query_by(db, table, field, value)
    lines = [*executed(db, key, first_line), intro]
    lines.append(empty if is_empty_result(found) else found)
    return "\n".join(lines)
