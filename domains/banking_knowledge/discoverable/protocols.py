"""Scripted-protocol behaviours: instructions the knowledge base has the agent trigger.

Each answers with a fixed instruction for the agent (`protocols.toml`, next to this module),
then ``Executed: <name>`` and ``Arguments: (no arguments)``. None changes the database; as
generic tools their calls are logged only when the task's gold plan uses them.
"""

from __future__ import annotations

from collections.abc import Callable

from tau_env.data_files import builtin_toml
from tau_env.domains.banking_knowledge.data_model import BankingDB
from tau_env.domains.banking_knowledge.discoverable.base import behaviour, name_of

__all__ = ["BEHAVIOURS"]


@behaviour("example_tool", "write")
def example_tool(db: BankingDB) -> str:
    """A placeholder tool (counts as a write: its call is always logged)."""
    return "Example tool executed successfully."


def _protocol(key: str, summary: str, instruction: str) -> Callable[[BankingDB], str]:
    """The generic behaviour `key`, answering with `instruction`."""

    def instruct(db: BankingDB) -> str:
        return f"{instruction}\n\nExecuted: {name_of(db, key)}\nArguments: (no arguments)"

    instruct.__name__ = instruct.__qualname__ = key
    instruct.__doc__ = summary
    return behaviour(key, "generic")(instruct)


def _read_table() -> tuple[Callable[[BankingDB], str], ...]:
    return tuple(
        _protocol(key, **entry)
        for key, entry in builtin_toml(__package__, "protocols.toml").items()
    )


BEHAVIOURS = (example_tool, *_read_table())
