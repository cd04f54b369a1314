"""How the scripted user tells the agent what its tools showed, in the words of its style.

Quoting styles say ``I did that. <tool> shows: <output>.``; paraphrasing styles say what they
did in their own words and retell the output through the domain's `ReportLexicon` (line
patterns, icons in words, switch states as on/off words) with a generic fallback for
``Key: Value`` lines, then recase it. Novices may leave details out (omission) or misread a
glanceable display (misread). The same style, seed and results give the same words.
"""

from __future__ import annotations

import random
import re
from collections.abc import Collection, Sequence
from functools import lru_cache

from tau_env.messages import ToolMessage
from tau_env.tasks.user_vocabulary import ReportLexicon
from tau_env.wrappers.users.style import UserStyle

__all__ = ["OFF_WORDS", "ON_WORDS", "Reporter"]

ON_WORDS = ("on", "enabled", "turned on", "switched on")
OFF_WORDS = ("off", "disabled", "turned off", "switched off")
_SWITCH = {"on": ON_WORDS, "yes": ON_WORDS, "off": OFF_WORDS, "no": OFF_WORDS}
_PAST = {
    "check": "checked",
    "toggle": "toggled",
    "reset": "reset",
    "set": "set",
    "run": "ran",
    "make": "made",
    "can": "tried",
    "get": "got",
}
_KEY_VALUE = re.compile(r"^\s*([A-Z][\w\-() ']{1,40}?):\s+(.+?)\s*$")
_INSTEAD = "I wasn't sure how to do that, so I did this instead:"
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
        if not self.style.paraphrase:
            return "I did that. " + " ".join(told)
        return self._recased(" ".join([self.rng.choice(_DONE_LEADS), *told]))

    def unresolved(self, probes: Sequence[ToolMessage]) -> str:
        """The report of goal checks that show the problem is still there."""
        if not self.style.paraphrase:
            return "It is still not resolved: " + " ".join(_quoted(m) for m in probes)
        parts = [self.rng.choice(_UNRESOLVED), *(self._retold(m, probe=True) for m in probes)]
        return self._recased(" ".join(parts))

    # -- one result ------------------------------------------------------------------------------
    def _told(self, result: ToolMessage, instead: bool) -> str:
        text = self._retold(result) if self.style.paraphrase else _quoted(result)
        return f"{_INSTEAD} {text}" if instead else text

    def _retold(self, result: ToolMessage, *, probe: bool = False) -> str:
        name = result.name or "the tool"
        lead = self._lead(name)
        content = (result.content or "").strip()
        if result.error:
            return f"{lead}, but it failed: {content}."
        chance = self.style.omission
        if chance and not probe and self.rng.random() < chance / 2:
            return f"{lead}."  # the result left out: the agent may have to ask again
        content = self._misread(content)
        lines = [line for line in content.splitlines() if line.strip()]
        if chance and len(lines) > 1 and self.rng.random() < chance:
            lines = lines[:1]
        said = " ".join(_sentence(self._line(line)) for line in lines)
        return f"{lead}. {said}" if said else f"{lead}."

    def _lead(self, tool: str) -> str:
        options = self.tool_phrases.get(tool)
        if options:
            return self.rng.choice(options)
        verb, *rest = tool.split("_")
        return f"I {_PAST.get(verb, verb + 'ed')} the {' '.join(rest)}".rstrip()

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
            return self._fill(self.rng.choice(options), groups)
        match = _KEY_VALUE.match(line)
        if match:
            key, value = match.group(1), match.group(2)
            if key.endswith(" Enabled") and value.lower() in ("yes", "no"):
                key, value = key[: -len(" Enabled")], self._switch(value)
            elif value.lower() in _SWITCH:
                value = self._switch(value)
            line = f"{key.lower()} is {value}" if self.rng.random() < 0.5 else f"{key}: {value}"
        return self._tokens(line)

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
        return self.rng.choice(options) if options else value

    def _tokens(self, text: str) -> str:
        for token, options in self.lexicon.tokens:
            if token in text:
                text = text.replace(token, self.rng.choice(options))
        return text

    def _recased(self, text: str) -> str:
        if not self.style.recase:
            return text
        roll = self.rng.random()
        if roll < 0.4:
            return text.lower()
        if roll < 0.6:
            return text[:1].upper() + text[1:].lower()
        return text


def _quoted(result: ToolMessage) -> str:
    name = result.name or "the tool"
    if result.error:
        return f"{name} failed: {result.content}."
    return f"{name} shows: {result.content}."


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."
