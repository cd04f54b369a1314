"""What a customer's message must not hold, read plainly: its instructions, tool names, code.

`parroting` checks a message for 8-word runs of its scenario with quotes, parentheses,
attribute lists and capitalised words masked: a light check for prose, blind to what those
masks hide (an attribute list read out, a Python literal). This module reads the message as it
is written, with nothing hidden but what a customer is entitled to say:

- **12-word runs** (`PlainScenario`, `PLAIN_RUN`): no run of 12 consecutive words of the
  scenario text appears in the message. Both texts are word sequences: lower case, split on
  anything that is not a letter (``T-Shirt`` is ``t shirt``, ``{'color': 'blue'}`` is
  ``color blue``), contractions spelled out, ``I``/``me``/``my``/``you``/``your``... one
  word, ``am``/``are`` and ``was``/``were`` one word. Left out of both (a customer may say
  them): *ids and amounts* (words holding a digit, ``_``, ``#`` or ``@``) and *names* (the
  scenario's proper names and product names: words it writes capitalised inside a sentence and
  never in lower case, such as ``Mei``, ``DFW``, ``Las Vegas``, ``Desk Lamp``).
- **Program speech** (`program_speech`): a tool name (an identifier of the user's or the
  agent's tools: ``check_status_bar``), function-call syntax (``reboot_device()``,
  ``mode=4g_only``), a program literal (``{'color': 'blue'}``, ``["a", "b"]``, JSON, ``None``
  / ``True`` / ``False`` as values) or raw tool output (a machine-formatted line of a tool
  result the user received, verbatim: ``Status Bar: 📵 No Signal | 📵 Data Disabled``;
  ``Key: Value`` lines, ``|``-separated fields, braces and status icons are machine
  formatting; a line of plain prose is a sentence a customer may read off the screen).

`tau_env.user_faults` raises ``instruction_leak`` and ``program_speech`` with these checks;
the scripted user's voice is held to them (`parroting.ScenarioWords` includes the runs).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from functools import lru_cache

from tau_env.wrappers.users.word_runs import CONTRACTIONS, SAME_WORDS, repeated_runs, runs_of

__all__ = ["PLAIN_RUN", "PlainScenario", "plain_words", "program_speech", "scenario_names"]

PLAIN_RUN = 12
"""The shortest run of scenario words, read plainly, that counts as reading instructions out."""

_TOKEN = re.compile(r"[A-Za-z0-9_#@$%.’'-]+")
_ID_LIKE = re.compile(r"\d|[_#@]")
_LETTERS = re.compile(r"[a-z]+")
_OPENERS = "\"'“‘([{"
_ENDS = ".!?;"
_EMPHASIS_WORDS = (
    "not no never do don't if and or but all any both only must none yes one the is "
    "are will want exact same"
)
_EMPHASIS = frozenset(_EMPHASIS_WORDS.split())
"""Words scenarios write in capitals for emphasis ("Do NOT", "ONLY", "BOTH"): not names."""


@lru_cache(maxsize=4096)
def scenario_names(scenario_text: str) -> frozenset[str]:
    """The scenario's names: words written capitalised inside a sentence, never in lower case.

    Lower-cased. A word at the start of a sentence or a line tells nothing; ``I`` is never a
    name; "Do NOT" is no name when "not" is written elsewhere; ids and e-mail addresses are
    left out ("amelia.gonzalez4271@example.com" does not make "Amelia" a common word), and so
    are the few words written in capitals for emphasis (`_EMPHASIS`).
    """
    capitalised: set[str] = set()
    lower: set[str] = set()
    previous = "\n"
    for found in re.finditer(r"\S+", scenario_text):
        token = found.group()
        gap = scenario_text[max(0, found.start() - 4) : found.start()]
        starts = "\n" in gap or previous[-1:] in _ENDS or previous == "\n"
        previous = token.rstrip(_OPENERS[::-1] + ")]}\"'”’")
        token = token.lstrip(_OPENERS)
        if not token or _ID_LIKE.search(token):
            continue
        if token[0].isupper():
            if not starts:
                capitalised.update(_LETTERS.findall(token.lower()))
        else:
            lower.update(_LETTERS.findall(token.lower()))
    return frozenset(capitalised - lower - _EMPHASIS - {"i"})


@lru_cache(maxsize=65536)
def plain_words(text: str, names: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """`text` as the word sequence the plain check compares (see the module docstring).

    Args:
        text: A message or a scenario text.
        names: Words left out as names (`scenario_names` of the scenario).
    """
    said = text.lower()
    for pattern, spelled in CONTRACTIONS:
        said = pattern.sub(spelled, said)
    words: list[str] = []
    for token in _TOKEN.findall(said):
        if _ID_LIKE.search(token.strip(".-’'")):
            continue  # an id, an amount, a date, a code with digits
        for word in _LETTERS.findall(token):
            if word not in names:
                words.append(SAME_WORDS.get(word, word))
    return tuple(words)


@dataclass(frozen=True)
class PlainScenario:
    """One scenario text's runs of `length` plainly read words, to check messages against.

    Attributes:
        names: The scenario's names (left out of both texts).
        runs: Every run of `length` consecutive words of the scenario.
        length: The run length (`PLAIN_RUN`).
    """

    names: frozenset[str]
    runs: frozenset[tuple[str, ...]]
    length: int = PLAIN_RUN

    @classmethod
    def of(cls, scenario_text: str, length: int = PLAIN_RUN) -> PlainScenario:
        """The runs of `scenario_text` (cached: one build per text and length)."""
        return _plain_scenario(scenario_text, length)

    def words(self, message: str) -> tuple[str, ...]:
        """`message` read plainly, the scenario's names left out."""
        return plain_words(message, self.names)

    def copied(self, message: str) -> list[str]:
        """The runs of `message` that repeat the scenario (overlapping runs merged)."""
        return repeated_runs(self.words(message), self.runs, self.length)


@lru_cache(maxsize=4096)
def _plain_scenario(scenario_text: str, length: int) -> PlainScenario:
    names = scenario_names(scenario_text)
    words = plain_words(scenario_text, names)
    return PlainScenario(names=names, runs=runs_of(words, length), length=length)


# -- program speech ----------------------------------------------------------------------------

_CALL = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\((?:\s*\)|\s*[A-Za-z_]\w*\s*=)")
"""A call: ``name()`` or ``name(key=``."""
_ASSIGNMENT = re.compile(r"(?<![\w=<>!])[a-z][a-z0-9]*(?:_[a-z0-9]+)*=(?![=\s])")
"""A keyword argument outside a call: ``mode=4g_only``."""
_LITERAL = re.compile(
    r"[{\[]\s*['\"][^'\"\n]{0,80}['\"]\s*[:,\]}]"  # {'key': / ["a", / ['a']
    r"|['\"][\w ]{1,40}['\"]\s*:\s*['\"{\[\d]"  # 'key': 'value' / "key": 1
    r"|[:=(,\[]\s*(?:None|True|False)\b"  # a Python constant as a value
    r"|\{\s*\}|\[\s*\]"  # empty containers
)
_SNAKE = re.compile(r"(?<![\w@./#-])[a-z]+(?:_[a-z]+)+(?![\w@-])")
"""An identifier in snake case without digits (``full_name``, ``4g_only`` has a digit: an id)."""
_URL = re.compile(r"\bhttps?://\S+")
_ICON = re.compile("[\u2190-\u2bff\U0001f000-\U0001faff]")
_KEY_VALUE = re.compile(r"^\s*[A-Z][\w\-() ']{0,40}:\s+\S")
_FIELDS = re.compile(r"\s\|\s")


def _formatted(line: str) -> bool:
    """A machine-formatted output line: ``Key: Value``, ``a | b`` fields, braces or icons."""
    return bool(_KEY_VALUE.match(line) or _FIELDS.search(line) or _ICON.search(line) or "{" in line)


def _output_lines(outputs: Iterable[str]) -> set[str]:
    lines: set[str] = set()
    for output in outputs:
        for line in output.splitlines():
            line = " ".join(line.split())
            if len(line) >= 8 and _formatted(line):
                lines.add(line)
    return lines


def program_speech(
    message: str, tool_names: Collection[str] = (), tool_outputs: Iterable[str] = ()
) -> list[str]:
    """What in `message` is a program's speech, not a customer's (empty: none).

    Args:
        message: A user message.
        tool_names: Names of the tools of either side (names without ``_`` are ordinary words
            and not looked for).
        tool_outputs: Results of the tools the user ran (their formatted lines must not be
            repeated verbatim).

    Returns:
        One line per finding: ``"tool name: check_status_bar"``, ``"call: reboot_device("``,
        ``"literal: {'color'"``, ``"identifier: full_name"``, ``"raw output: Status Bar: ..."``.
    """
    found: list[str] = []
    said = " ".join(message.split())
    message = _URL.sub(" ", message)  # a link read out is an address, not code
    identifiers = {name for name in tool_names if "_" in name}
    for word in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", message):
        if word in identifiers:
            found.append(f"tool name: {word}")
    found += [f"call: {m.group()}" for m in _CALL.finditer(message)]
    found += [f"assignment: {m.group()}" for m in _ASSIGNMENT.finditer(message)]
    found += [f"literal: {m.group()}" for m in _LITERAL.finditer(message)]
    found += [
        f"identifier: {m.group()}" for m in _SNAKE.finditer(message) if m.group() not in identifiers
    ]
    found += [f"raw output: {line}" for line in _output_lines(tool_outputs) if line in said]
    return found
