"""The user scenario as text: its sections, and a first-person rendering of second-person prose.

The scripted user reads exactly what an LLM user receives, ``str(task.user_scenario)``
(`UserScenario.__str__`): ``Persona:`` and ``Instructions:`` blocks, the latter either free
text or the structured sections ``Reason for call``, ``Known info``, ``Unknown info`` and
``Task instructions``. `parse_scenario_text` recovers those sections from the text alone.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

__all__ = ["ScenarioText", "first_person", "parse_scenario_text"]

_SECTIONS = {
    "Reason for call:": "reason",
    "Known info:": "known",
    "Unknown info:": "unknown",
    "Task instructions:": "instructions",
}


@dataclass(frozen=True)
class ScenarioText:
    """The sections of a scenario text (empty strings where the scenario has none).

    Attributes:
        text: The whole scenario text, as the user receives it.
        persona: Who the user is.
        reason: Why they call (structured scenarios; free-text ones: the whole instructions).
        known: What they know.
        unknown: What they do not know.
        instructions: How they behave (structured scenarios; free text: the whole instructions).
    """

    text: str
    persona: str = ""
    reason: str = ""
    known: str = ""
    unknown: str = ""
    instructions: str = ""

    @property
    def wishes_text(self) -> str:
        """Where wishes are stated: the reason for calling and the task instructions."""
        if self.reason == self.instructions:
            return self.reason
        return "\n".join(part for part in (self.reason, self.instructions) if part)

    @property
    def facts_text(self) -> str:
        """Where facts are stated: known info, reason and instructions (not unknown info)."""
        parts = (self.known, self.reason, self.instructions)
        return "\n".join(dict.fromkeys(part for part in parts if part))


def _blocks(lines: list[str], headers: dict[str, str]) -> dict[str, list[str]]:
    """Lines grouped under the column-0 headers they follow (other lines are indented)."""
    blocks: dict[str, list[str]] = {}
    current: str | None = None
    for line in lines:
        if line in headers:
            current = headers[line]
            blocks[current] = []
        elif current is not None:
            blocks[current].append(line)
    return blocks


def _dedent(lines: list[str]) -> str:
    return textwrap.dedent("\n".join(lines)).strip()


def parse_scenario_text(text: str) -> ScenarioText:
    """The sections of ``str(UserScenario)``; unknown layouts count as free-text instructions."""
    top = _blocks(text.splitlines(), {"Persona:": "persona", "Instructions:": "instructions"})
    if "instructions" not in top:
        return ScenarioText(text=text, reason=text.strip(), instructions=text.strip())
    persona = _dedent(top.get("persona", []))
    body = textwrap.dedent("\n".join(top["instructions"]))
    lines = body.splitlines()
    if not lines or not lines[0].startswith("Domain: "):
        free = body.strip()
        return ScenarioText(text=text, persona=persona, reason=free, instructions=free)
    sections = {name: _dedent(block) for name, block in _blocks(lines, _SECTIONS).items()}
    return ScenarioText(text=text, persona=persona, **sections)


# -- first person ------------------------------------------------------------------------------

_PRONOUNS = {
    "you're": "I'm",
    "you've": "I've",
    "you'd": "I'd",
    "you'll": "I'll",
    "you are": "I am",
    "you were": "I was",
    "your": "my",
    "yours": "mine",
    "yourself": "myself",
}
_PRONOUN = re.compile(
    r"\b(you're|you've|you'd|you'll|you are|you were|yourself|yours|your|you)\b", re.IGNORECASE
)
_SUBJECT_BEFORE = re.compile(
    r"(^|[.!?;:,]\s+|\b(and|but|that|if|because|when|so|or|as|while|once|until|unless|since|"
    r"whether|how|what|why|which|where|who|much|many)\s+)$",
    re.IGNORECASE,
)
"""Before a subject: a clause starts here (sentence, conjunction, question word)."""
_OBJECT_BEFORE = re.compile(
    r"\b(to|for|with|at|from|about|of|on|by|against|toward|towards|without|than|like|into|"
    r"onto|upon|after|before|behind|near|around)\s+$",
    re.IGNORECASE,
)
"""Before an object: a preposition ("to you", "for you")."""
_OBJECT_AFTER = re.compile(
    r"^(\s*([.!?;:,)\"\n]|$)|\s+(a|an|the|this|that|these|those|my|your|his|her|its|our|their|"
    r"some|any|to|for|with|at|from|about|of|on|in|by|and|or|but|back|again|twice|now|today|"
    r"directly|immediately|later|soon|yet|up|down|out|off|over|without|through|into|via|first|"
    r"here|there|everything|anything|nothing|something|how|what|why|whether|if|when)\b)",
    re.IGNORECASE,
)
"""After an object: the clause ends, or a determiner or preposition follows, not a verb."""
_THANK = re.compile(r"\bthank\s+$", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?:;]\s*$|\n\s*$")
""""thank you" is said to the agent, in any voice."""
_QUOTE = re.compile(r"([\"\u201c\u201d])")
"""Quotation marks: a quoted line is the user's own words, where "you" is the agent."""
_POSSESSIVE_TYPO = re.compile(r"\bYou (?=mobile\b|phone\b)")


def _match_case(word: str, like: str, start_of_sentence: bool) -> str:
    if word.startswith("I") and (word == "I" or word[1] == "'" or word.startswith("I ")):
        return word  # "I" is always capitalised
    return word[:1].upper() + word[1:] if (like[:1].isupper() or start_of_sentence) else word


def first_person(text: str) -> str:
    """Second-person scenario prose in the user's own voice ("Your phone..." -> "My phone...").

    A light rewrite, enough for an opening line or a question: pronouns and the verbs
    "are"/"were" after "you". A lone "you" is "me" after a preposition ("transfer you to",
    "for you"); else "I" where a clause starts (sentence start, conjunction, question word:
    "why you didn't", "how much you have"); else "me" when no verb follows ("suits you.",
    "told you that", "give you a refund"), and "I" when one does ("the camera you bought").
    Quoted words are the user's own ("you" is the agent there) and stay as written, and so
    does "thank you".
    """
    parts = _QUOTE.split(text)  # text, quotation mark, text, ...: every other text is quoted
    if len(parts) % 4 != 1:  # unbalanced quotes: rewrite it all
        return _rewrite(text)
    return "".join(part if index % 4 == 2 else _rewrite(part) for index, part in enumerate(parts))


def _rewrite(text: str) -> str:
    text = _POSSESSIVE_TYPO.sub("Your ", text)

    def replace(match: re.Match[str]) -> str:
        found = match.group(1)
        before = text[: match.start()]
        if _THANK.search(before):
            return found
        start = bool(_SUBJECT_BEFORE.search(before))
        key = found.lower()
        word = _PRONOUNS.get(key, "")
        if key == "you":
            subject = not _OBJECT_BEFORE.search(before) and (
                start or not before.strip() or not _OBJECT_AFTER.match(text[match.end() :])
            )
            word = "I" if subject else "me"
        sentence_start = not before.strip() or _SENTENCE_END.search(before) is not None
        return _match_case(word, found, sentence_start)

    return _PRONOUN.sub(replace, text)
