"""The three user personas of telecom tasks (written by tau_env).

``None`` gives no persona text; ``Easy`` is a capable, patient user; ``Hard`` an anxious user
with little technical knowledge. The labels are the reference's (they appear in task ids).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PERSONAS", "Persona"]


@dataclass(frozen=True)
class Persona:
    """How the simulated user behaves.

    Attributes:
        label: ``None``, ``Easy`` or ``Hard`` (the ``[PERSONA:...]`` part of a task id).
        text: The persona the LLM user receives (None: no persona).
        opening_suffix: Words the scripted user adds after its opening line.
        closing: What the scripted user says when the problem is gone.
    """

    label: str
    text: str | None
    opening_suffix: str
    closing: str


PERSONAS: tuple[Persona, ...] = (
    Persona(
        label="None",
        text=None,
        opening_suffix="",
        closing="It works now. Thank you, that is all I needed.",
    ),
    Persona(
        label="Easy",
        text=(
            "You are a 38-year-old pharmacy technician who relies on your phone for shift "
            "schedules, messages and banking. You find your way around the settings menus "
            "without trouble, though you do not follow technology closely.\n\n"
            "You stay calm and cooperative. You carry out each instruction carefully, repeat "
            "back what you did, and report exactly what your phone shows before moving on."
        ),
        opening_suffix="",
        closing="Great, that did it. Thanks for walking me through it!",
    ),
    Persona(
        label="Hard",
        text=(
            "You are a 71-year-old retired bus driver. Your phone is for calling your sister, "
            "the weather forecast and the occasional photo; anything beyond that makes you "
            "nervous.\n\n"
            "Technical words (APN, VPN, roaming) mean nothing to you and you say so. You answer "
            "only what you are asked, worry out loud that a step might delete your photos or "
            "break the phone, and need to be reassured before you do anything unusual."
        ),
        opening_suffix=" Please go slowly with me, I'm not very good with these things.",
        closing="Oh, thank goodness, it works again. Thank you so much for your patience.",
    ),
)
"""Every persona, in the reference's round-robin order (None, Easy, Hard)."""
