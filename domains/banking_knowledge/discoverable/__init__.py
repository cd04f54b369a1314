"""Discoverable tools: behaviours (code) and catalogues (names and documentation, data).

The agent does not see these tools in its tool list. The knowledge base names them; the agent
unlocks one (``unlock_discoverable_agent_tool``, which shows its documentation) and calls it
through ``call_discoverable_agent_tool``, or gives a customer tool to the user
(``give_discoverable_user_tool``), who calls it through ``call_discoverable_user_tool``. So
the action space keeps its shape while the usable action set grows during an episode.

A bank's catalogue maps public names to `BEHAVIOURS` keys. `reference_catalog` is the
reference's: 44 agent tools and 4 customer tools, documentation verbatim (it is what the agent
reads when it unlocks a tool).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from importlib import resources
from types import MappingProxyType

from tau_env.domains.banking_knowledge.data_model import CatalogEntry
from tau_env.domains.banking_knowledge.discoverable import (
    account_activity,
    accounts,
    credit_cards,
    credit_limits,
    customer,
    debit_card_activation,
    debit_card_orders,
    debit_cards,
    disputes,
    protocols,
)
from tau_env.domains.banking_knowledge.discoverable.base import (
    Behaviour,
    behaviour_of,
    format_documentation,
    invoke,
    name_of,
)
from tau_env.errors import DataError

__all__ = [
    "AGENT_BEHAVIOURS",
    "BEHAVIOURS",
    "USER_BEHAVIOURS",
    "Behaviour",
    "check_catalog",
    "format_documentation",
    "invoke",
    "name_of",
    "reference_catalog",
]

_AGENT_FUNCTIONS: tuple[Callable[..., str], ...] = (
    *protocols.BEHAVIOURS,
    *accounts.BEHAVIOURS,
    *account_activity.BEHAVIOURS,
    *credit_cards.BEHAVIOURS,
    *credit_limits.BEHAVIOURS,
    *debit_card_orders.BEHAVIOURS,
    *debit_card_activation.BEHAVIOURS,
    *debit_cards.BEHAVIOURS,
    *disputes.BEHAVIOURS,
)

AGENT_BEHAVIOURS = MappingProxyType(
    {spec.key: spec for spec in (behaviour_of(f) for f in _AGENT_FUNCTIONS)}
)
"""Behaviours an agent-side catalogue entry may point at, by key."""

USER_BEHAVIOURS = MappingProxyType(
    {spec.key: spec for spec in (behaviour_of(f) for f in customer.BEHAVIOURS)}
)
"""Behaviours a customer-side catalogue entry may point at, by key."""

BEHAVIOURS = MappingProxyType({**AGENT_BEHAVIOURS, **USER_BEHAVIOURS})
"""Every behaviour, by key."""


@cache
def reference_catalog() -> tuple[CatalogEntry, ...]:
    """The reference's discoverable tools, in its order (agent tools, then customer tools)."""
    text = resources.files(__name__).joinpath("reference_catalog.json").read_text("utf-8")
    return tuple(CatalogEntry.model_validate(entry) for entry in json.loads(text))


def check_catalog(entries: tuple[CatalogEntry, ...], *, source: str) -> None:
    """Refuse a catalogue whose entries point at no behaviour or document other arguments.

    Raises:
        DataError: An entry's behaviour is unknown for its side, a name or a behaviour is
            used twice, or the documented parameters are not the behaviour's.
    """
    names: set[str] = set()
    used: set[tuple[str, str]] = set()
    for entry in entries:
        where = f"{source}: discoverable tool {entry.name!r}"
        known = AGENT_BEHAVIOURS if entry.side == "agent" else USER_BEHAVIOURS
        spec = known.get(entry.behaviour)
        if spec is None:
            raise DataError(f"{where}: no {entry.side} behaviour {entry.behaviour!r}")
        if entry.name in names:
            raise DataError(f"{where}: the name is used twice")
        if (entry.side, entry.behaviour) in used:
            raise DataError(f"{where}: behaviour {entry.behaviour!r} already has a name")
        documented = tuple(p.name for p in entry.parameters)
        if documented != spec.parameters:
            raise DataError(
                f"{where}: documents parameters {list(documented)}, "
                f"the behaviour takes {list(spec.parameters)}"
            )
        names.add(entry.name)
        used.add((entry.side, entry.behaviour))
