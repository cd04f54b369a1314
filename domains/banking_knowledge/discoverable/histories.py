"""Read behaviours that list one table's records for an account or a customer.

Five of the reference's read tools differ only in their table, column and texts, so they are
one function made from a table of queries (`histories.toml`, next to this module): each takes
one argument, named after the column it matches.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from tau_env.data_files import builtin_toml
from tau_env.domains.banking_knowledge.data_model import BankingDB
from tau_env.domains.banking_knowledge.discoverable.base import behaviour
from tau_env.domains.banking_knowledge.discoverable.checks import given
from tau_env.domains.banking_knowledge.discoverable.texts import history

__all__ = ["HISTORIES"]


def _history_behaviour(key: str, query: Mapping[str, str]) -> Callable[..., str]:
    """The behaviour `key`: the records of ``query["table"]`` whose column matches its argument."""
    field = query["field"]
    missing = f"Error: Missing required parameter: {field}"

    def read(db: BankingDB, **arguments: Any) -> str:
        value = arguments[field]
        given(value, missing)
        heading = query["heading"].format(value)
        return history(
            db, key, query["done"], heading, query["table"], field, value, query["empty"]
        )

    read.__name__ = read.__qualname__ = key
    read.__doc__ = query["summary"]
    keyword = inspect.Parameter.POSITIONAL_OR_KEYWORD
    parameters = [inspect.Parameter("db", keyword), inspect.Parameter(field, keyword)]
    setattr(read, "__signature__", inspect.Signature(parameters))  # noqa: B010 (no such attribute for mypy)
    return behaviour(key, "read")(read)


def _read_table() -> Mapping[str, Callable[..., str]]:
    table = builtin_toml(__package__, "histories.toml")
    return MappingProxyType({key: _history_behaviour(key, query) for key, query in table.items()})


HISTORIES = _read_table()
"""Behaviour key -> the behaviour, for the modules whose tools these are."""
