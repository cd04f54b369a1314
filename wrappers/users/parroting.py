"""Whether a user message repeats its scenario's instructions: the 8-word-run check.

A simulated customer tells the agent its reason for calling and its details, in its own words;
it never reads its instructions aloud. The check: **no run of `RUN` (8) or more consecutive
words of the scenario text appears in a message**, where both texts are compared as word
sequences after the same normalisation:

1. **Masked** (said as they are, so not counted as copied words): each maximal stretch of
   - *quoted facts*: text in double quotes (``"..."``, ``“...”``), in single quotes used as
     quotation marks (``'No Service'``), or in parentheses (``(PHL)``, ``(color: black)``),
     and the items of an attribute list: two or more ``label: value`` items in a row, with
     labels of one or two words, separated by ``,`` ``;`` or ``and``
     (``switch: tactile, layout: compact``; ``user id: noor_xu_7697; bags: 0``);
   - *ids and numbers*: words holding a digit, ``_``, ``#``, ``@`` or ``.`` inside
     (``#W4580262``, ``noor_xu_7697``, ``2024-05-19``, ``$12.50``, ``a@b.com``), and codes of
     two or more capitals (``EHGLP3``, ``DFW``, ``MMS``);
   - *names*: capitalised words that do not start a sentence (``Dallas``, ``Google Home``)
   is left out of both texts: the check is on the words that remain, so a run of 8 of them
   counts even when an id stood between two of them ("want to book a one-way trip from Dallas
   to" copies nine words).
2. **Normalised** (a change of person or a contraction is not a paraphrase): lower case;
   contractions spelled out (``I'd`` -> ``i would``, ``don't`` -> ``do not``, ``it's`` ->
   ``it is``); ``I``, ``me``, ``my``, ``mine``, ``myself``, ``you``, ``your``, ``yours`` and
   ``yourself`` are one word; ``am``/``are`` are one word, and so are ``was``/``were``;
   punctuation and sentence ends are ignored (a run may cross them).

`copied_runs` lists a message's offending runs; `ScenarioWords` holds one scenario's runs,
built once per scenario text (cached), so checking a message costs one pass over its words.
It also holds the scenario's plainly read runs (`plain_reading.PlainScenario`: 12 words with
nothing masked but ids, amounts and names), which `copied` reports too: what the masks hide (an
attribute list, a quoted literal) is still not read out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from tau_env.wrappers.users.plain_reading import PlainScenario
from tau_env.wrappers.users.word_runs import CONTRACTIONS, SAME_WORDS, repeated_runs, runs_of

__all__ = ["PLACEHOLDER", "RUN", "ScenarioWords", "copied_runs", "masked_words"]

RUN = 8
"""The shortest run of scenario words that counts as reading the instructions aloud."""

PLACEHOLDER = "§"
"""What a masked stretch (quote, id, number, name) becomes before it is left out."""

_QUOTED = re.compile(r"\"[^\"\n]*\"|“[^”\n]*”|(?<![\w'])'[^'\n]{1,80}?'(?![\w])")
_PARENTHESES = re.compile(r"\([^()\n]*\)")
_ITEM = r"(?!(?:a|an|and|for|in|of|on|the|to|with) )[a-z][a-z-]*(?: [a-z][a-z-]*)?: [^,;:()\n]+?"
_LIST = re.compile(
    rf"(?<![\w-]){_ITEM}(?:(?:[,;]\s+|\s+and\s+){_ITEM})+(?=[,;.)\n]|\s+and\s|\s+for\s|$)"
)
_PIECE = re.compile(r"§|[A-Za-z0-9_#@$%&.\-’']+|[!?:;\n]")
"""A word (with the marks it carries: ids, amounts, contractions) or a sentence end."""
_ID_LIKE = re.compile(r"\d|[_#@]|\w\.\w")
_CODE = re.compile(r"[A-Z][A-Z0-9]+(?:[’']s)?")
_PRONOUN_I = re.compile(r"I(?:[’'](?:m|d|ve|ll))?")
_ENDS = (".", "!", "?", ":", ";", "\n")
_SPLIT = re.compile(r"[^a-z0-9]+")
_EDGE = "#@$%&.-’'"


def _masked_text(text: str) -> str:
    """`text` with quoted facts and attribute lists replaced by the placeholder."""
    text = _QUOTED.sub(f" {PLACEHOLDER} ", text)
    while True:  # innermost first: "(Kettle (capacity: 1L) and Lamp (color: red))"
        text, count = _PARENTHESES.subn(f" {PLACEHOLDER} ", text)
        if not count:
            break
    return _LIST.sub(f" {PLACEHOLDER} ", text)


@lru_cache(maxsize=65536)
def masked_words(text: str) -> tuple[str, ...]:
    """`text` as the normalised word sequence the check compares (see the module docstring).

    Masked stretches are left out: ``masked_words("Cancel #W1 now")`` is ``("cancel", "now")``.
    Cached: the scripted user checks the same few sentences many times.
    """
    kept: list[str] = []
    sentence_start = True
    for match in _PIECE.finditer(_masked_text(text)):
        token = match.group()
        raw = token.strip(_EDGE)
        if not raw:  # punctuation alone, or a line break
            sentence_start = sentence_start or token.endswith(_ENDS)
            continue
        start, sentence_start = sentence_start, token.endswith(_ENDS)
        if raw == PLACEHOLDER or _ID_LIKE.search(raw) is not None:
            continue
        capital = raw[0].isupper() and _PRONOUN_I.fullmatch(raw) is None
        if capital and (_CODE.fullmatch(raw) is not None or not start):
            continue  # a code, or a name (a capital that does not start a sentence)
        kept.append(raw)
    said = " ".join(kept).lower()
    for pattern, spelled in CONTRACTIONS:
        said = pattern.sub(spelled, said)
    return tuple(SAME_WORDS.get(word, word) for word in _SPLIT.split(said) if word)


@dataclass(frozen=True)
class ScenarioWords:
    """One scenario text's runs of `length` words, to check messages against.

    Attributes:
        runs: Every run of `length` consecutive normalised words of the scenario.
        plain: The scenario's plainly read runs (`plain_reading.PlainScenario`).
        length: The run length (`RUN`).
    """

    runs: frozenset[tuple[str, ...]]
    plain: PlainScenario
    length: int = RUN

    @classmethod
    def of(cls, scenario_text: str, length: int = RUN) -> ScenarioWords:
        """The runs of `scenario_text` (cached: one build per text and length)."""
        return _scenario_words(scenario_text, length)

    def repeats(self, words: tuple[str, ...]) -> bool:
        """Whether a normalised word sequence (`masked_words`) holds a run of the scenario."""
        n = self.length
        runs = self.runs
        return any(words[i : i + n] in runs for i in range(len(words) - n + 1))

    def copied(self, message: str) -> list[str]:
        """The runs of `message` that repeat the scenario (overlapping runs merged).

        The masked runs first, then the plainly read ones (`PlainScenario.copied`).
        """
        return self.masked_copies(message) + self.plain.copied(message)

    def masked_copies(self, message: str) -> list[str]:
        """The masked runs of `message` that repeat the scenario (overlapping runs merged)."""
        return repeated_runs(masked_words(message), self.runs, self.length)


@lru_cache(maxsize=4096)
def _scenario_words(scenario_text: str, length: int) -> ScenarioWords:
    runs = runs_of(masked_words(scenario_text), length)
    return ScenarioWords(runs=runs, plain=PlainScenario.of(scenario_text), length=length)


def copied_runs(message: str, scenario_text: str, length: int = RUN) -> list[str]:
    """The runs of `length` or more words of `scenario_text` that `message` repeats.

    Empty when the message says nothing of its instructions beyond names, ids, numbers and
    quoted facts (see the module docstring for the exact normalisation).
    """
    return ScenarioWords.of(scenario_text, length).copied(message)
