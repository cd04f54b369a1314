"""How a scripted customer talks: registers (phrase banks) and the persona -> register map.

The phrase banks are data (`registers.toml`, next to this module).

A register is the customer's way of speaking, independent of what it knows: how it greets,
opens, agrees, declines, says it does not know, thanks and gives up. The scenario's persona
picks it (`register_for`): terse for a busy, direct persona; anxious for a nervous one or a
novice style; polite for a calm, capable one; everyday otherwise. The episode seed picks among
each bank's phrasings (`tau_env.wrappers.users.voice`).

Some phrasings are read by agents' parsers, so every bank keeps the words they look for:
agreement says "yes" or "go ahead", a declined offer never does; not knowing says "don't
know" (``don't know my <label>.`` for a fact); a request to repeat, and not understanding a
request, are ones `matcher.did_not_follow` recognises; none of them names a wish or a service
("cancel", "book", "data", "call"...), so the opening's wish is the scenario's alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tau_env.data_files import builtin_toml
from tau_env.wrappers.users.style import UserStyle

__all__ = ["REGISTERS", "Register", "register_for"]


@dataclass(frozen=True, eq=False)
class Register:
    """One way of speaking: the phrasings a customer chooses from (see the module docstring).

    Attributes:
        name: The register's name.
        greetings: What the opening starts with ("" for none).
        prefaces: A sentence said before or after the reason for calling ("" for none).
        closers: What the opening ends with ("" for none).
        fillers: Words put inside a long sentence of the reason ("you know").
        yes: Accepting an offer or confirming.
        no: Declining an offer.
        okay: A neutral answer to a turn that asks nothing.
        unknown: Not knowing what the agent asked.
        fact_leads: Said before the facts the agent asked for ("" for none).
        unknown_fact: Not knowing a fact: a template with ``{label}``.
        ask_human: Asking for a human after a refusal.
        accept_refusal: Accepting a refusal before hanging up.
        closing: Thanking before hanging up satisfied.
        give_up: Giving up before hanging up.
        question_leads: Said before one of the scenario's questions ("" for none).
        repeat: Asking to hear an instruction again (novices).
        decline_transfer: Declining a transfer to a human (a customer told not to be).
        insist: Pushing back on a refusal (a customer told to insist).
        decline_again: Holding to a declined offer the agent pushes again.
        too_expensive: Declining a price over the customer's budget.
        healthy: Saying there is no health reason.
        withhold: Not telling a detail the customer keeps to itself: a template with
            ``{label}``.
        not_understood: Not understanding what the agent asks to be done.
        not_understood_thing: The same about a thing the agent named: a template with
            ``{thing}``.
        too_many: Asking to go one step at a time, handed more steps than a customer follows
            from one message.
    """

    name: str
    greetings: tuple[str, ...]
    prefaces: tuple[str, ...]
    closers: tuple[str, ...]
    fillers: tuple[str, ...]
    yes: tuple[str, ...]
    no: tuple[str, ...]
    okay: tuple[str, ...]
    unknown: tuple[str, ...]
    fact_leads: tuple[str, ...]
    unknown_fact: tuple[str, ...]
    ask_human: tuple[str, ...]
    accept_refusal: tuple[str, ...]
    closing: tuple[str, ...]
    give_up: tuple[str, ...]
    question_leads: tuple[str, ...]
    repeat: tuple[str, ...]
    decline_transfer: tuple[str, ...]
    insist: tuple[str, ...]
    decline_again: tuple[str, ...]
    too_expensive: tuple[str, ...]
    healthy: tuple[str, ...]
    withhold: tuple[str, ...]
    not_understood: tuple[str, ...]
    not_understood_thing: tuple[str, ...]
    too_many: tuple[str, ...]


def _read_registers() -> dict[str, Register]:
    """`registers.toml`'s registers (next to this module), in file order."""
    return {
        name: Register(name=name, **{bank: tuple(phrases) for bank, phrases in banks.items()})
        for name, banks in builtin_toml(__package__, "registers.toml").items()
    }


REGISTERS: dict[str, Register] = _read_registers()
"""The registers by name: ``everyday``, ``terse``, ``anxious``, ``polite``."""

_TERSE = re.compile(
    r"\b(short sentences|concise|direct|brief|terse|to the point|busy|few words)\b", re.IGNORECASE
)
_STYLE_REGISTER = {"novice": "anxious", "paraphrase": "polite"}


def register_for(persona: str, style: UserStyle) -> Register:
    """The register of a customer with this persona and style.

    A persona of few words (busy, direct, concise, short sentences) is ``terse``; otherwise
    the style decides, itself read from the persona by default: ``novice`` -> ``anxious``,
    ``paraphrase`` -> ``polite``, any other -> ``everyday``.
    """
    if _TERSE.search(persona):
        return REGISTERS["terse"]
    return REGISTERS[_STYLE_REGISTER.get(style.name, "everyday")]
