"""A scripted-user brief for official retail tasks, read from the task's own structure.

Official tasks carry a free-text scenario and no `UserScript`. What the customer can tell
comes first from the gold plan, whose arguments are exact (the email, name and zip the agent
looks up), else from the scenario's known info, which names them in a few regular ways
("Your name is Liam Thomas and your zip code is 85049", "You are mia_garcia_4516 with email
..."); order ids (``#W`` and seven digits) come from the whole scenario. The expected outcome
shows in the gold writes (the words that tell the customer it is done), or in their absence
(a refusal), or in a transfer.
"""

from __future__ import annotations

import re
from types import MappingProxyType

from tau_env.domains.retail.constants import REFUSAL_PHRASES
from tau_env.tasks.model import StructuredUserInstructions, Task, UserScript

__all__ = ["derive_user_script"]

_ORDER_ID = re.compile(r"#W\d{7}\b")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_USER_ID = re.compile(r"\b[a-z]+_[a-z]+_\d+\b")
_ZIP = re.compile(r"\b\d{5}\b")
_NAME = re.compile(
    r"(?:You are|You're|Your name is|You name is|called) ([A-Z][a-z]+) ([A-Z][a-z]+)"
)

_DONE_WORDS = MappingProxyType(
    {
        "cancel_pending_order": "cancelled",
        "modify_pending_order_address": "updated",
        "modify_pending_order_items": "modified",
        "modify_pending_order_payment": "updated",
        "modify_user_address": "updated",
        "exchange_delivered_order_items": "exchange",
        "return_delivered_order_items": "return",
    }
)


def derive_user_script(task: Task) -> UserScript | None:
    """The scripted user's brief for a task without one (None for unstructured scenarios)."""
    instructions = task.user_scenario.instructions
    if not isinstance(instructions, StructuredUserInstructions):
        return None
    known = instructions.known_info or ""
    facts = _facts_from_text(known)
    for action in task.gold_actions:  # the last look-up of each kind is the one that works
        if action.name == "find_user_id_by_email":
            facts["email"] = str(action.arguments.get("email", ""))
        elif action.name == "find_user_id_by_name_zip":
            facts.update({key: str(value) for key, value in action.arguments.items()})
    parts = (instructions.known_info, instructions.reason_for_call, instructions.task_instructions)
    orders = list(dict.fromkeys(_ORDER_ID.findall("\n".join(p for p in parts if p))))
    if orders:
        facts["order_id"] = orders[0]
    if len(orders) > 1:
        facts["order_ids"] = ", ".join(orders)
    names = [action.name for action in task.gold_actions]
    done = list(dict.fromkeys(_DONE_WORDS[name] for name in names if name in _DONE_WORDS))
    return UserScript(
        opening=instructions.reason_for_call.strip(),
        facts=facts,
        done_phrases=done or list(REFUSAL_PHRASES),
        accepts=["confirm"] if done else [],
        expects_transfer="transfer_to_human_agents" in names,
    )


def _facts_from_text(known: str) -> dict[str, str]:
    """Email(s), user id, name and zip as the scenario's known info states them."""
    facts: dict[str, str] = {}
    emails = [email.rstrip(".") for email in _EMAIL.findall(known)]
    if emails:
        facts["email"] = emails[0]
    if len(emails) > 1:  # "your emails are a and b": the customer offers both
        facts["emails"] = ", ".join(emails)
    if user_id := _USER_ID.search(known):
        facts["user_id"] = user_id.group()
    if name := _NAME.search(known):
        facts["first_name"], facts["last_name"] = name.group(1), name.group(2)
    if zip_code := _ZIP.search(known):
        facts["zip"] = zip_code.group()
    return facts
