"""How the scripted user tells the agent what its tools showed, in a customer's words.

Every style says what it did and what the screen shows in words, never a tool's name or its
raw output: the domain's `ReportLexicon` retells each output line (line patterns, icons in
words, switch states as on/off words), with a generic fallback (`Key: Value` lines as "the key
is value", program constants such as ``NO_PROGRESS`` as words, echoed calls and JSON arguments
left out, prose in the first person). Plain styles always take the first wording; paraphrasing
styles pick among the wordings and recase the whole. Novices may leave details out (omission)
or misread a glanceable display (misread). The same style, seed and results give the same words.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Collection, Sequence
from functools import lru_cache
from typing import Any

from tau_env.messages import ToolMessage
from tau_env.tasks.scenario_text import first_person
from tau_env.tasks.user_vocabulary import ReportLexicon
from tau_env.wrappers.users.style import UserStyle

__all__ = ["OFF_WORDS", "ON_WORDS", "Reporter"]

ON_WORDS = ("on", "enabled", "turned on", "switched on")
OFF_WORDS = ("off", "disabled", "turned off", "switched off")
_SWITCH = {"on": ON_WORDS, "yes": ON_WORDS, "off": OFF_WORDS, "no": OFF_WORDS}
_KEY_VALUE = re.compile(r"^\s*(?:-\s+)?([A-Z][\w\-() ']{1,40}?):\s+(.+?)\s*$")
_ECHO = re.compile(r"^Executed: \w+\s*\nArguments: (?:\{[\s\S]*?\n\}|\S+)\s*$", re.MULTILINE)
"""A discoverable tool's echo of the call it ran: the user does not read it out."""
_CONSTANT = re.compile(r"\b[A-Z]{2,}(?:_[A-Z]+)+\b")
_SNAKE_WORDS = re.compile(r"(?<![\w@./#-])[a-z]+(?:_[a-z]+)+(?![\w@-])")
"""A lower-case constant (``no_service``): said as words (ids hold digits and stay)."""
_HEADING = re.compile(r"^(.+?):\s*$")
_BULLET = re.compile(r"^\s*-\s+")
_INSTEAD = "I wasn't sure how to do that, so I did this instead."
_DONE_LEADS = ("I did that.", "Done.", "Okay, done.", "I've done it.")
_UNRESOLVED = (
    "It is still not resolved:",
    "It's still not working.",
    "Still no luck, it's not fixed.",
    "That didn't fix it, it's still not working.",
)


@lru_cache(maxsize=64)
def _compiled(lexicon: ReportLexicon) -> tuple[tuple[re.Pattern[str], tuple[str, ...]], ...]:
    return tuple((re.compile(pattern), options) for pattern, options in lexicon.lines)


@lru_cache(maxsize=16384)
def _parse_line(
    lexicon: ReportLexicon, line: str
) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The lexicon's wordings for one output line and the line's groups (None: no pattern)."""
    stripped = line.strip()
    for pattern, options in _compiled(lexicon):
        match = pattern.fullmatch(stripped)
        if match:
            return options, tuple(group or "" for group in match.groups())
    return None


_SLOT = re.compile(r"\{(on:)?(\d)\}")


@lru_cache(maxsize=1024)
def _slots(template: str) -> tuple[tuple[str, ...], tuple[tuple[bool, int], ...]]:
    """A wording split once into its literal parts and its slots (switch?, group number).

    A wording is said on every report: splitting it per use cost a regex substitution with a
    Python callback each time.
    """
    parts = _SLOT.split(template)  # literal, (on:), digit, literal, ...
    literals = tuple(parts[0::3])
    slots = tuple(
        (bool(on), int(digit)) for on, digit in zip(parts[1::3], parts[2::3], strict=True)
    )
    return literals, slots


class Reporter:
    """Words for tool results, in one style (one per episode: it holds the style's random state).

    Args:
        style: The user's style.
        lexicon: The domain's words for its tools.
        rng: The episode's random source (shared with the user's other chances).
    """

    def __init__(self, style: UserStyle, lexicon: ReportLexicon, rng: random.Random) -> None:
        self.style = style
        self.lexicon = lexicon
        self.rng = rng
        self.tool_phrases = dict(lexicon.tool_phrases)

    # -- whole reports ---------------------------------------------------------------------------
    def performed(self, results: Sequence[ToolMessage], instead: Collection[str] = ()) -> str:
        """The report of tool calls the agent asked for.

        Args:
            results: The calls' results, in order.
            instead: Tools the user ran instead of the one asked for (a novice's mistake);
                the report says so.
        """
        told = [self._told(m, m.name in instead) for m in results]
        return self._recased(" ".join([self._pick(_DONE_LEADS), *told]))

    def unresolved(self, probes: Sequence[ToolMessage]) -> str:
        """The report of goal checks that show the problem is still there."""
        parts = [self._pick(_UNRESOLVED), *(self._retold(m, probe=True) for m in probes)]
        return self._recased(" ".join(parts))

    def _pick(self, options: Sequence[str]) -> str:
        """The first wording for a plain style, a drawn one for a paraphrasing style."""
        return self.rng.choice(options) if self.style.paraphrase else options[0]

    # -- one result ------------------------------------------------------------------------------
    def _told(self, result: ToolMessage, instead: bool) -> str:
        text = self._retold(result)
        return f"{_INSTEAD} {text}" if instead else text

    def _retold(self, result: ToolMessage, *, probe: bool = False) -> str:
        lead = self._lead(result.name or "")
        content = _ECHO.sub("", (result.content or "").strip())
        if result.error:
            return f"{lead}, but it failed: {_said_plainly(content)}."
        chance = self.style.omission
        if chance and not probe and self.rng.random() < chance / 2:
            return f"{lead}."  # the result left out: the agent may have to ask again
        content = self._misread(content)
        lines = _json_lines(content) or [line for line in content.splitlines() if line.strip()]
        if chance and len(lines) > 1 and self.rng.random() < chance:
            lines = lines[:1]
        said = " ".join(_sentence(self._line(line)) for line in lines)
        if not lead:
            return f"My screen says: {said}" if said else "I did it."
        return f"{lead}. {said}" if said else f"{lead}."

    def _lead(self, tool: str) -> str:
        """What the user says they did: the lexicon's words ("" for a tool it has none for)."""
        options = self.tool_phrases.get(tool)
        return self._pick(options) if options else ""

    def _misread(self, content: str) -> str:
        if not self.style.misread:
            return content
        for text, instead in self.lexicon.misreads:
            if text in content and self.rng.random() < self.style.misread:
                return content.replace(text, instead, 1)
        return content

    def _line(self, line: str) -> str:
        parsed = _parse_line(self.lexicon, line)
        if parsed is not None:
            options, groups = parsed
            return self._fill(self._pick(options), groups)
        match = _KEY_VALUE.match(line)
        if match:
            key, value = match.group(1), match.group(2)
            if key.endswith(" Enabled") and value.lower() in ("yes", "no"):
                key, value = key[: -len(" Enabled")], self._switch(value)
            elif value.lower() in _SWITCH:
                value = self._switch(value)
            return self._tokens(f"the {key.lower()} is {_said_plainly(value)}")
        heading = _HEADING.match(line)
        if heading:  # "Credit card application submitted:" heads the lines it introduces
            line = heading.group(1)
        return self._tokens(_said_plainly(first_person(_BULLET.sub("", line))))

    def _fill(self, template: str, groups: tuple[str, ...]) -> str:
        """The template with its ``{n}`` / ``{on:n}`` slots said, left to right."""
        literals, slots = _slots(template)
        said = [literals[0]]
        for (switch, index), literal in zip(slots, literals[1:], strict=True):
            value = groups[index - 1] or ""
            said.append(self._switch(value) if switch else self._tokens(value))
            said.append(literal)
        return "".join(said)

    def _switch(self, value: str) -> str:
        options = _SWITCH.get(value.strip().lower())
        return self._pick(options) if options else value

    def _tokens(self, text: str) -> str:
        for token, options in self.lexicon.tokens:
            if token in text:
                text = text.replace(token, self._pick(options))
        return _SNAKE_WORDS.sub(lambda m: m.group().replace("_", " "), text)

    def _recased(self, text: str) -> str:
        if not self.style.recase:
            return text
        roll = self.rng.random()
        if roll < 0.4:
            return text.lower()
        if roll < 0.6:
            return text[:1].upper() + text[1:].lower()
        return text


def _json_lines(content: str) -> list[str]:
    """A JSON result as ``Key: value`` lines, one per scalar field (empty: not JSON)."""
    if not content.startswith(("{", "[")):
        return []
    try:
        data = json.loads(content)
    except ValueError:
        return []
    lines: list[str] = []

    def walk(value: Any, label: str) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, f"{label} {key}".strip())
        elif isinstance(value, list):
            for item in value:
                walk(item, label)
        else:
            words = "none" if value is None else value
            if isinstance(value, bool):
                words = "yes" if value else "no"
            name = label.replace("_", " ") or "value"
            lines.append(f"{name[:1].upper()}{name[1:]}: {words}")

    walk(data, "")
    return lines


def _said_plainly(text: str) -> str:
    """Program constants in words (``NO_PROGRESS`` -> ``no progress``), lines joined."""
    text = _CONSTANT.sub(lambda m: m.group().replace("_", " ").lower(), text)
    return " ".join(text.split())


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
