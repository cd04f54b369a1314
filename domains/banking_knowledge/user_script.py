"""Scripted-user briefs for banking tasks, read from the scenario text alone.

Official banking scenarios are free text (``**Your character:**``, ``**Verification info:**``
bullets, a ``## Conversation Flow`` with quoted lines). The brief takes from that text only,
never from the gold plan or the evaluation criteria:

- the opening: the quoted line of the ``Opening`` (or ``Start naturally``) step, else the
  first quoted line of the conversation flow, else the goal or situation in first person;
- facts the customer gives when asked: name, user id, phone, email, date of birth, address;
- the customer's own tools: those the task gives them (``user_tools``), which they run when
  the agent asks;
- whether a transfer to a human is part of what the customer wants.
"""

from __future__ import annotations

import re
from functools import lru_cache

from tau_env.messages import STOP_TOKENS
from tau_env.tasks.model import Task, UserScript

__all__ = ["derive_user_script", "scenario_facts", "scenario_opening"]

_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_QUOTE = re.compile(r"[\"“]([^\"“”\n]{12,})[\"”]")
_OPENING_STEP = re.compile(r"^.*\*\*(?:Opening|Start naturally)[^*]*\*\*.*$", re.MULTILINE)
_FLOW = re.compile(r"^#+\s*(?:Conversation Flow|How to Behave)", re.MULTILINE | re.IGNORECASE)
_SECTION = re.compile(r"\*\*Your (goal|situation):\*\*\s*(.+)")

_USER_ID = re.compile(r"user[ _]?id(?:\s+is|:)?\s*[`\"']?([A-Za-z0-9_]{2,})", re.IGNORECASE)
_PHONE = re.compile(r"\b\d{3}-\d{3}-\d{4}\b")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_BIRTH = re.compile(r"(?:DOB|date of birth)[^0-9\n]{0,20}(\d{1,2}/\d{1,2}/\d{4})", re.IGNORECASE)
_ADDRESS = re.compile(r"Address:\s*([^|\n]+?)\s*(?:\||$)", re.MULTILINE)
_NAMES = (
    re.compile(r"(?:full name|Name):\s*([A-Z][\w.'-]+(?: [A-Z][\w.'-]+)+)"),
    re.compile(r"\*\*Your character:\*\*\s*(?:You are )?([A-Z][\w.'-]+(?: [A-Z][\w.'-]+)+),"),
    re.compile(r"named ([A-Z][\w.'-]+(?: [A-Z][\w.'-]+)+)"),
)
_WANTS_HUMAN = re.compile(
    r"(transfer(red)?|speak|talk)\s+(you\s+|me\s+)?(to|with)\s+(a\s+)?"
    r"(human|real person|live agent)",
    re.IGNORECASE,
)

_FIRST_PERSON = (
    (re.compile(r"\bYou're\b"), "I'm"),
    (re.compile(r"\byou're\b"), "I'm"),
    (re.compile(r"\bYou've\b"), "I've"),
    (re.compile(r"\byou've\b"), "I've"),
    (re.compile(r"\bYou\b"), "I"),
    (re.compile(r"\byou\b"), "me"),
    (re.compile(r"\bYour\b"), "My"),
    (re.compile(r"\byour\b"), "my"),
    (re.compile(r"\byourself\b"), "myself"),
)


def _clean(line: str) -> str | None:
    """A usable spoken line: its sentences without a stop token, no markdown left."""
    sentences = _SENTENCE.split(line.strip().strip("*").strip())
    kept = [s for s in sentences if s and not any(t in s for t in STOP_TOKENS.values())]
    return " ".join(kept) or None


def _first_person(text: str) -> str:
    for pattern, replacement in _FIRST_PERSON:
        text = pattern.sub(replacement, text)
    return text


def scenario_opening(instructions: str) -> str:
    """What the customer says first, taken from the scenario's own words."""
    for step in _OPENING_STEP.finditer(instructions):
        quoted = _QUOTE.search(instructions, step.start())
        if quoted and (line := _clean(quoted.group(1))):
            return line
    flow = _FLOW.search(instructions)
    if flow:
        quoted = _QUOTE.search(instructions, flow.end())
        if quoted and (line := _clean(quoted.group(1))):
            return line
    for kind in ("goal", "situation"):
        for match in _SECTION.finditer(instructions):
            if match.group(1) == kind and (line := _clean(match.group(2))):
                return _first_person(line)
    paragraphs = [p for p in instructions.split("\n\n") if p.strip()]
    body = paragraphs[1] if len(paragraphs) > 1 else (paragraphs[0] if paragraphs else "")
    return _clean(_first_person(body)) or "Hi, I need some help with my account."


def scenario_facts(instructions: str) -> dict[str, str]:
    """What the customer can tell when asked, as the scenario states it."""
    facts: dict[str, str] = {}
    for pattern in _NAMES:
        if found := pattern.search(instructions):
            facts["name"] = found.group(1).strip()
            break
    if found := _USER_ID.search(instructions):
        facts["user_id"] = found.group(1)
    if found := _PHONE.search(instructions):
        facts["phone_number"] = found.group()
    if found := _EMAIL.search(instructions):
        facts["email"] = found.group().rstrip(".")
    if found := _BIRTH.search(instructions):
        facts["date_of_birth"] = found.group(1)
    if found := _ADDRESS.search(instructions):
        facts["address"] = found.group(1).strip()
    return facts


def derive_user_script(task: Task) -> UserScript | None:
    """The scripted customer's brief, from the task's scenario text and its own tools."""
    if task.user_script is not None:
        return task.user_script
    instructions = task.user_scenario.instructions
    if not isinstance(instructions, str):
        return None
    tools = tuple(task.user_tools) if task.user_tools is not None else None
    return _script(instructions, tools)


@lru_cache(maxsize=1024)
def _script(instructions: str, tools: tuple[str, ...] | None) -> UserScript:
    """Read once per scenario text (users derive their brief at every episode's start)."""
    return UserScript(
        opening=scenario_opening(instructions),
        facts=scenario_facts(instructions),
        accepted_tools=list(tools) if tools is not None else None,
        expects_transfer=bool(_WANTS_HUMAN.search(instructions)),
    )
