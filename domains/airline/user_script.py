"""A scripted-user brief for official airline tasks, read from the task's own structure.

Official tasks carry a free-text scenario and no `UserScript`. The facts a scripted user needs
are written in a regular way there ("Your user id is sara_doe_496", reservation codes of six
capitals and digits), and the expected outcome shows in the gold actions: which writes the
agent makes (the words that tell the user it is done), or none (a refusal), or a transfer.
"""

from __future__ import annotations

import re
from types import MappingProxyType

from tau_env.domains.airline.constants import REFUSAL_PHRASES
from tau_env.tasks.model import StructuredUserInstructions, Task, UserScript

__all__ = ["derive_user_script"]

_USER_ID = re.compile(r"\b[a-z]+_[a-z]+_\d+\b")
# Six capitals and digits with both kinds, but not a flight number such as HAT045.
_RESERVATION_ID = re.compile(r"\b(?!HAT\d{3}\b)(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{6}\b")
_NAME = re.compile(r"(?:You are|Your name is) ([A-Z][a-z]+(?: [A-Z][a-z]+)+)")

_DONE_WORDS = MappingProxyType(
    {
        "book_reservation": "booked",
        "cancel_reservation": "cancelled",
        "update_reservation_baggages": "updated",
        "update_reservation_flights": "updated",
        "update_reservation_passengers": "updated",
        "send_certificate": "certificate",
    }
)


def derive_user_script(task: Task) -> UserScript | None:
    """The scripted user's brief for a task without one (None for unstructured scenarios)."""
    instructions = task.user_scenario.instructions
    if not isinstance(instructions, StructuredUserInstructions):
        return None
    parts = (instructions.known_info, instructions.reason_for_call, instructions.task_instructions)
    text = "\n".join(part for part in parts if part)
    facts: dict[str, str] = {}
    if user_id := _USER_ID.search(text):
        facts["user_id"] = user_id.group()
    reservations = list(dict.fromkeys(_RESERVATION_ID.findall(text)))
    if reservations:
        facts["reservation_id"] = reservations[0]
    if len(reservations) > 1:
        facts["reservation_ids"] = ", ".join(reservations)
    if name := _NAME.search(text):
        facts["name"] = name.group(1)
    names = [action.name for action in task.gold_actions]
    done = list(dict.fromkeys(_DONE_WORDS[name] for name in names if name in _DONE_WORDS))
    return UserScript(
        opening=instructions.reason_for_call.strip(),
        facts=facts,
        done_phrases=done or list(REFUSAL_PHRASES),
        accepts=["confirm"] if done else [],
        expects_transfer="transfer_to_human_agents" in names,
    )
