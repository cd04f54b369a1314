"""How banking tools are called: JSON values as sent, and discoverable tools by their names.

The reference's toolkits hold every discoverable method beside the always-visible tools; only
the tool lists shown to the models leave them out. So a call named after a discoverable tool of
the caller's side runs it directly: an agent tool without being unlocked and without the call
log that ``call_discoverable_agent_tool`` writes; a customer tool still checks, in its own
body, that the agent gave it (and logs the call when it did). A name of the other side's tools
is unknown. Arguments reach every tool as sent: numbers stay as the caller wrote them (the
wrappers' conversion of integers to floats does not apply), and nothing is validated against
the documented types.
"""

from __future__ import annotations

from types import MappingProxyType

from tau_env.domains.banking_knowledge.data_model import BankingDB
from tau_env.domains.banking_knowledge.discoverable import AGENT_BEHAVIOURS, USER_BEHAVIOURS
from tau_env.domains.banking_knowledge.discoverable.base import Behaviour
from tau_env.messages import Side
from tau_env.tools.as_sent import ArgumentsAsSent, UnlistedTool

__all__ = ["AS_SENT", "owner", "unlisted_tool"]

_SEARCH_OWNERS = MappingProxyType({"KB_search": "KBSearchMixin", "grep": "GrepMixin"})
"""The reference's classes of the retrieval tools (mixed into the agent's toolkit)."""


def owner(side: Side, name: str) -> str:
    """The reference's class holding the tool `name` of `side` (named in call errors)."""
    if side == "user":
        return "KnowledgeUserTools"
    return _SEARCH_OWNERS.get(name, "KnowledgeTools")


def _unlisted(spec: Behaviour) -> UnlistedTool:
    return UnlistedTool(spec.function, spec.parameters, spec.required_set, spec.mutates_state)


_AGENT = MappingProxyType({key: _unlisted(spec) for key, spec in AGENT_BEHAVIOURS.items()})
_USER = MappingProxyType({key: _unlisted(spec) for key, spec in USER_BEHAVIOURS.items()})


def unlisted_tool(db: BankingDB, side: Side, name: str) -> UnlistedTool | None:
    """The discoverable tool of `side` this bank names `name`, called directly; else None."""
    entry = db.tool_catalog.get(name)
    if entry is None or entry.side != side:
        return None
    return (_AGENT if side == "agent" else _USER).get(entry.behaviour)


AS_SENT = ArgumentsAsSent(owner=owner, unlisted=unlisted_tool)
"""The banking toolbox's calling convention (`tau_env.state.Toolbox.arguments_as_sent`)."""
