"""What the checks that a message does not read its scenario share: normalising, and runs.

Both checks (`parroting`, the masked 8-word runs, and `plain_reading`, the plain 12-word runs)
compare word sequences. A change of person or a contraction is not a paraphrase: both spell
contractions out and read the person words as one word (`CONTRACTIONS`, `SAME_WORDS`); both
find a message's runs of a scenario's words the same way (`runs_of`, `repeated_runs`).
"""

from __future__ import annotations

import re

__all__ = ["CONTRACTIONS", "SAME_WORDS", "repeated_runs", "runs_of"]

CONTRACTIONS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bcan[’']t\b"), "can not"),
    (re.compile(r"\bwon[’']t\b"), "will not"),
    (re.compile(r"\bshan[’']t\b"), "shall not"),
    (re.compile(r"n[’']t\b"), " not"),
    (re.compile(r"[’']m\b"), " am"),
    (re.compile(r"[’']re\b"), " are"),
    (re.compile(r"[’']ve\b"), " have"),
    (re.compile(r"[’']ll\b"), " will"),
    (re.compile(r"[’']d\b"), " would"),
    (re.compile(r"[’']s\b"), " is"),
)
"""Contractions and how they are spelled out (applied in order, to lower-case text)."""

SAME_WORDS: dict[str, str] = {
    **dict.fromkeys(
        ("i", "me", "my", "mine", "myself", "you", "your", "yours", "yourself"), "<person>"
    ),
    "am": "are",
    "were": "was",
}
"""Words read as one: the person words (``<person>``), ``am``/``are``, ``was``/``were``."""


def runs_of(words: tuple[str, ...], length: int) -> frozenset[tuple[str, ...]]:
    """Every run of `length` consecutive words of `words`."""
    return frozenset(words[i : i + length] for i in range(len(words) - length + 1))


def repeated_runs(
    words: tuple[str, ...], runs: frozenset[tuple[str, ...]], length: int
) -> list[str]:
    """The stretches of `words` made of runs in `runs` (overlapping runs merged), as text."""
    spans: list[list[int]] = []
    for i in range(len(words) - length + 1):
        if words[i : i + length] in runs:
            if spans and i <= spans[-1][1]:
                spans[-1][1] = i + length
            else:
                spans.append([i, i + length])
    return [" ".join(words[a:b]) for a, b in spans]
