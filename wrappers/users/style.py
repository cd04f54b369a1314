"""How a scripted user talks and errs: `UserStyle`, named styles, and the persona -> style map.

Users differ in expertise (the τ²-bench paper's third limitation). A style changes how the
scripted user expresses the same brief, never what it knows or wants:

- ``structured_requests``: read the agent's structured `UserRequest` (exact tool calls and
  fact keys). Off, the user reads the agent's words only, as an LLM user does. On is the easy
  mode; evaluation and the RL benchmark use it off.
- ``paraphrase`` / ``recase``: report tool results in its own words (the domain's
  `ReportLexicon`), with the casing of a hurried typist, instead of quoting the tool.
- ``omission``: chance to leave part of a report out (a status line, the details of a result,
  one of several facts asked for at once).
- ``mistake``: chance to run the neighbouring tool instead of the one asked for (a check
  instead of the change), reported as what it is.
- ``misread``: chance to misread a glanceable display (a status icon one level off).
- ``repeat``: chance to ask for a new instruction to be said again before doing it.
- ``patience``: unproductive agent turns in a row before the user gives up.

Styles are deterministic for a given ``seed``: the same seed, scenario and agent behaviour give
the same conversation. The reference's personas map onto styles (`style_for_persona`): no
persona -> ``plain``; a capable, calm user -> ``paraphrase``; an anxious user with little
technical knowledge -> ``novice``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

__all__ = ["STYLES", "UserStyle", "resolve_style", "style_for_persona"]


@dataclass(frozen=True)
class UserStyle:
    """How a scripted user talks and errs (see the module docstring).

    Attributes:
        name: The style's name (for reports and logs).
        structured_requests: Read structured requests (easy mode) or words only.
        paraphrase: Report tool results in the user's own words.
        recase: Change the casing of reports.
        omission: Chance to leave a part of a report or answer out.
        mistake: Chance to run a neighbouring tool instead of the one asked for.
        misread: Chance to misread a glanceable display.
        repeat: Chance to ask for a new instruction to be repeated before acting.
        patience: Unproductive agent turns in a row before the user gives up.
        seed: Seeds every chance above.
    """

    name: str = "plain"
    structured_requests: bool = False
    paraphrase: bool = False
    recase: bool = False
    omission: float = 0.0
    mistake: float = 0.0
    misread: float = 0.0
    repeat: float = 0.0
    patience: int = 6
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("omission", "mistake", "misread", "repeat"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"UserStyle.{name} must be in [0, 1], actually: {value}")
        if self.patience < 1:
            raise ValueError(f"UserStyle.patience must be >= 1, actually: {self.patience}")

    def with_seed(self, seed: int) -> UserStyle:
        """The same style with another seed."""
        return replace(self, seed=seed)


STYLES: dict[str, UserStyle] = {
    "structured": UserStyle(name="structured", structured_requests=True),
    "plain": UserStyle(name="plain"),
    "paraphrase": UserStyle(name="paraphrase", paraphrase=True, recase=True, patience=8),
    "novice": UserStyle(
        name="novice",
        paraphrase=True,
        recase=True,
        omission=0.25,
        mistake=0.15,
        misread=0.3,
        repeat=0.2,
        patience=5,
    ),
}
"""The named styles: ``structured`` (easy mode: exact requests, quoted results), ``plain``
(words only, quoted results), ``paraphrase`` (own words, any casing), ``novice`` (own words,
omissions, mistakes, misreadings, repeats, less patience)."""

_HARD = re.compile(
    r"\b(nervous|anxious|flustered|uneasy|overwhelm\w*|worr\w+|confus\w*|limited|little technical|"
    r"mean nothing|foreign language|not very good)\b",
    re.IGNORECASE,
)
_EASY = re.compile(
    r"\b(calm|patient|cooperative|familiar|without trouble|comfortable|capable|friendly|"
    r"carefully|attentive\w*)\b",
    re.IGNORECASE,
)


def style_for_persona(persona: str) -> UserStyle:
    """The style a persona text describes (read from its words, as an LLM user would).

    No persona: ``plain``; words of anxiety or little technical knowledge: ``novice``; words
    of a calm, capable user: ``paraphrase``; anything else: ``plain``.
    """
    if not persona.strip():
        return STYLES["plain"]
    if _HARD.search(persona):
        return STYLES["novice"]
    if _EASY.search(persona):
        return STYLES["paraphrase"]
    return STYLES["plain"]


def resolve_style(style: UserStyle | str | None, persona: str, seed: int = 0) -> UserStyle:
    """A style given by value or name, or (None) the one the scenario's persona describes.

    Raises:
        ValueError: An unknown style name.
    """
    if isinstance(style, UserStyle):
        return style
    if style is None or style == "persona":
        chosen = style_for_persona(persona)
    elif style in STYLES:
        chosen = STYLES[style]
    else:
        raise ValueError(f"unknown user style {style!r}; known: persona, {', '.join(STYLES)}")
    return chosen.with_seed(seed) if seed != chosen.seed else chosen
