"""How a scripted customer talks: registers (phrase banks) and the persona -> register map.

A register is the customer's way of speaking, independent of what it knows: how it greets,
opens, agrees, declines, says it does not know, thanks and gives up. The scenario's persona
picks it (`register_for`): terse for a busy, direct persona; anxious for a nervous one or a
novice style; polite for a calm, capable one; everyday otherwise. The episode seed picks among
each bank's phrasings (`tau_env.wrappers.users.voice`).

Some phrasings are read by agents' parsers, so every bank keeps the words they look for:
agreement says "yes" or "go ahead", a declined offer never does; not knowing says "don't
know" (``don't know my <label>.`` for a fact); a request to repeat is one `matcher.did_not_follow`
recognises; none of them names a wish or a service ("cancel", "book", "data", "call"...), so
the opening's wish is the scenario's alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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


_YES = ("Yes, please go ahead.", "Yes, go ahead.", "Yes, please do.", "Yes, that's fine.")
_NO = ("No, thank you.", "No, thanks.", "No, I'd rather not.", "No, I don't want that.")
_UNKNOWN_FACT = ("Sorry, I don't know my {label}.", "I'm afraid I don't know my {label}.")
_REPEAT = (
    "Sorry, I didn't quite follow. Could you say again what I should do on my phone?",
    "Wait, what was that? Can you repeat what I need to do?",
)

REGISTERS: dict[str, Register] = {
    "everyday": Register(
        name="everyday",
        greetings=(
            "",
            "Hi.",
            "Hello.",
            "Hi there.",
            "Hey there.",
            "Hello there.",
            "Good afternoon.",
        ),
        prefaces=("", "", "I hope you can help me.", "I've got a problem."),
        closers=("", "", "Can you help me with that?", "Could you help?", "Thanks."),
        fillers=("you know", "I mean", "well"),
        yes=(*_YES, "Yes, sounds good, go ahead.", "Sure, yes."),
        no=_NO,
        okay=("Okay.", "Alright.", "Okay, sure.", "Mm-hm.", "Sure."),
        unknown=("Sorry, I don't know that.", "I don't know, sorry.", "Hmm, I don't know that."),
        fact_leads=("", "", "Sure.", "Of course.", "Okay."),
        unknown_fact=(*_UNKNOWN_FACT, "Hmm, I don't know my {label}."),
        ask_human=(
            "Then please transfer me to a human agent.",
            "In that case, I'd like to speak to a human agent.",
            "Can you put me through to a human agent, then?",
        ),
        accept_refusal=("I understand.", "Okay, I see.", "Alright, I understand."),
        closing=(
            "Thank you, that is all I needed.",
            "Great, thanks, that's everything.",
            "Perfect, thank you. That's all.",
            "Thanks a lot, that's all I needed.",
        ),
        give_up=("I'll try again another time.", "Never mind, I'll try again later."),
        question_leads=("", "Also,", "One more thing:", "Oh, and"),
        repeat=_REPEAT,
    ),
    "terse": Register(
        name="terse",
        greetings=("", "", "Hi.", "Hello."),
        prefaces=("",),
        closers=("", "", "Thanks."),
        fillers=("well",),
        yes=("Yes.", "Yes, go ahead.", "Go ahead, yes."),
        no=("No.", "No, thanks."),
        okay=("Ok.", "Okay.", "Fine."),
        unknown=("I don't know.", "No idea, I don't know."),
        fact_leads=("",),
        unknown_fact=("I don't know my {label}.", "Sorry, I don't know my {label}."),
        ask_human=("Transfer me to a human agent.", "Then get me a human agent, please."),
        accept_refusal=("Understood.", "Okay."),
        closing=("Thanks, that's all.", "Thanks. Bye.", "Done, thanks."),
        give_up=("Forget it.", "I'll try later."),
        question_leads=("", "Also:"),
        repeat=("Didn't catch that. Say it again?", *_REPEAT),
    ),
    "anxious": Register(
        name="anxious",
        greetings=("Hello?", "Oh, hello.", "Hi, um, hello.", "Hello, sorry to bother you."),
        prefaces=(
            "",
            "I'm not very good with these things, sorry.",
            "I hope this is the right place.",
            "Sorry, I'm a bit flustered.",
        ),
        closers=("", "Can you help me, please?", "I don't know what to do.", "Could you help me?"),
        fillers=("um", "uh", "sorry"),
        yes=("Yes, please go ahead.", "Oh, yes, please do.", "Yes, I think so, go ahead."),
        no=("No, thank you.", "Oh, no, I'd rather not.", "Um, no, thanks."),
        okay=("Okay.", "Oh, okay.", "Alright, um, okay.", "Okay, thank you."),
        unknown=("Sorry, I don't know that.", "Oh dear, I don't know.", "Um, I don't know, sorry."),
        fact_leads=("", "Let me see.", "Um, okay.", "Just a second."),
        unknown_fact=(*_UNKNOWN_FACT, "Oh, sorry, I don't know my {label}."),
        ask_human=(
            "Then please transfer me to a human agent.",
            "Could I please speak to a human agent?",
        ),
        accept_refusal=("Oh. Okay, I understand.", "I see. Alright."),
        closing=(
            "Oh, thank you so much, that is all I needed.",
            "Thank you, you've been very patient. That's all.",
            "Thank you, that's everything.",
        ),
        give_up=("I'll try again another time.", "Oh, never mind, I'll ask someone later."),
        question_leads=("", "Oh, and", "Sorry, one more thing:"),
        repeat=(*_REPEAT, "Sorry, I didn't understand. Could you say that again?"),
    ),
    "polite": Register(
        name="polite",
        greetings=("Hello.", "Good morning.", "Good afternoon.", "Hello, thank you for your time."),
        prefaces=("", "", "I'd appreciate your help with something."),
        closers=("", "Could you help me with that, please?", "Thank you in advance."),
        fillers=("I believe", "that is"),
        yes=("Yes, please go ahead.", "Yes, that works for me, go ahead.", "Yes, please do."),
        no=("No, thank you.", "No, thank you, I'd rather not.", "That won't be necessary, no."),
        okay=("Okay.", "Alright, thank you.", "Understood.", "Okay, thanks."),
        unknown=("Sorry, I don't know that.", "I'm afraid I don't know that."),
        fact_leads=("", "Of course.", "Certainly."),
        unknown_fact=_UNKNOWN_FACT,
        ask_human=(
            "Then please transfer me to a human agent.",
            "In that case, could you transfer me to a human agent, please?",
        ),
        accept_refusal=("I understand.", "I see, thank you for explaining."),
        closing=(
            "Thank you, that is all I needed.",
            "Thank you very much for your help. That's all.",
            "Wonderful, thank you. That's everything.",
        ),
        give_up=("I'll try again another time.", "Thank you anyway, I'll try again later."),
        question_leads=("", "Also,", "May I also ask:"),
        repeat=_REPEAT,
    ),
}
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
