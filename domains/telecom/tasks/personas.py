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
        text: The persona the user receives (None: no persona); the scripted user reads its
            style from it (`tau_env.wrappers.users.style_for_persona`).
    """

    label: str
    text: str | None


PERSONAS: tuple[Persona, ...] = (
    Persona(
        label="None",
        text=None,
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
    ),
)
"""Every persona, in the reference's round-robin order (None, Easy, Hard)."""
