"""What a built-in banking refusal must not hear (`forbidden_info`).

The bank's rule 6 says never to reveal internal tool names: a refusal (a request turned down,
a caller not verified, a call handed to a specialist) must not name the tools of the policy or
of the documents the task is about. A recital of the policy, or a dump of the documents a
search returned, says them. A caller who could not be verified must not hear the record's
values either (the kind adds those, `Draft.forbidden`). `domains.forbidden` holds the rules
the domains share.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from tau_env.domains.banking_knowledge.generator.catalog import TOOLS
from tau_env.domains.banking_knowledge.generator.drafts import Draft
from tau_env.domains.forbidden import unsaid

__all__ = ["REFUSING_KINDS", "forbidden_facts", "refuses", "tool_names"]

REFUSING_KINDS = frozenset(
    {
        "verification_failed",
        "third_party_transfer",
        "fraud_transfer",
        "fraud_alert_transfer",
        "limit_declined_age",
        "limit_declined_payments",
    }
)
"""Kinds that turn the request down or hand it over, besides every ``*_refused`` kind."""

_TOOL_NAME = re.compile(r"\b[a-z]+(?:_[a-z]+)+(?:_\d{4})?\b")


def refuses(kind: str) -> bool:
    """True for a kind whose right outcome is a refusal or a hand-over."""
    return kind.endswith("_refused") or kind in REFUSING_KINDS


def tool_names(text: str, known: Iterable[str]) -> list[str]:
    """The tool names of `known` that `text` names, in the order it names them."""
    names = set(known)
    return list(dict.fromkeys(n for n in _TOOL_NAME.findall(text) if n in names))


def forbidden_facts(draft: Draft, documents: Mapping[str, str], policy: str) -> list[str]:
    """What the task of a refusing `draft` must not hear.

    Its own facts (`Draft.forbidden`), and the tool names its policy and documents name (none
    that it must say).
    """
    names = [*TOOLS.values(), *_TOOL_NAME.findall(policy)]  # (the policy names only tools)
    text = "\n".join([policy, *(documents[doc] for doc in draft.documents)])
    return unsaid([*draft.forbidden, *tool_names(text, names)], draft.communicate)
