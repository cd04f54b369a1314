"""Scripted-user briefs (`UserScript`) for telecom tasks.

Generated tasks carry one (`script_for`). Official tasks carry none, so `derive_user_script`
builds one from their structure: the intent from the id prefix (``[mms_issue]...``), the
persona from ``[PERSONA:...]``, the name, number and location from the scenario's known info,
the offers the scenario allows (paying a bill for service tasks, 2 GB of data otherwise) and
whether the gold solution is a transfer.
"""

from __future__ import annotations

import re

from tau_env.domains.telecom.tasks.intents import INTENTS, Intent
from tau_env.domains.telecom.tasks.personas import PERSONAS, Persona
from tau_env.tasks.model import StructuredUserInstructions, Task, UserScript

__all__ = ["derive_user_script", "script_for"]

_INTENT = re.compile(r"^\[([a-z_]+)\]")
_PERSONA = re.compile(r"\[PERSONA:([A-Za-z_]+)\]")
_WHO = re.compile(r"You are (?P<name>.+?) with phone number (?P<phone>[\d\- ()+]+?)\.")
_WHERE = re.compile(r"You are currently (?P<location>[^.]+)\.")

_OFFER_PATTERNS = {"payment": r"\bpay (a|the|an|your|all)\b", "refuel": r"\brefuel\b"}
"""Offers a scenario's instructions allow, recognised by these words."""

TRANSFER_TOOL = "transfer_to_human_agents"


def script_for(
    intent: Intent,
    persona: Persona,
    facts: dict[str, str],
    *,
    expects_transfer: bool,
    offers: tuple[str, ...] | None = None,
) -> UserScript:
    """The scripted user's brief for a task of `intent` played by `persona`.

    Args:
        intent: What the user calls about.
        persona: How they behave (opening words, closing line).
        facts: What they can tell the agent (name, phone_number, location...).
        expects_transfer: The right outcome is a transfer to a human agent.
        offers: What the user accepts besides confirmations (default: the intent's offer).
    """
    return UserScript(
        opening=intent.opening + persona.opening_suffix,
        facts=facts,
        accepted_tools=None,
        goal_checks=list(intent.goal_checks),
        accepts=["confirm", *(offers if offers is not None else (intent.offer,))],
        expects_transfer=expects_transfer,
        closing=persona.closing,
    )


def derive_user_script(task: Task) -> UserScript | None:
    """A scripted-user brief for a telecom task that has none; None when the id is not telecom's.

    The task's own `user_script` wins when present.
    """
    if task.user_script is not None:
        return task.user_script
    match = _INTENT.match(task.id)
    intent = INTENTS.get(match.group(1)) if match else None
    if intent is None:
        return None
    label = _PERSONA.search(task.id)
    persona = next((p for p in PERSONAS if label and p.label == label.group(1)), PERSONAS[0])
    facts: dict[str, str] = {}
    instructions = task.user_scenario.instructions
    if isinstance(instructions, StructuredUserInstructions):
        known, rules = instructions.known_info or "", instructions.task_instructions.lower()
    else:
        known, rules = "", instructions.lower()
    offers = tuple(offer for offer, pattern in _OFFER_PATTERNS.items() if re.search(pattern, rules))
    who = _WHO.search(known)
    if who:
        facts["name"] = facts["full_name"] = who["name"]
        facts["phone_number"] = who["phone"]
    where = _WHERE.search(known)
    if where:
        facts["location"] = where["location"]
    transfer = "ACTION" in task.reward_basis and any(
        action.name == TRANSFER_TOOL for action in task.gold_actions
    )
    return script_for(intent, persona, facts, expects_transfer=transfer, offers=offers or None)
