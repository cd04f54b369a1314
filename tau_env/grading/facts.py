"""Whole words and whole numbers: how the strict COMMUNICATE check hears a fact in a message.

The reference's check is a case-insensitive substring: "2" is heard in "24", "once" in
"concerned". Here a text is cut into tokens, and a fact (one or more tokens) is heard only as
a run of whole tokens:

- A token is a run of letters, digits and the characters that join them inside ids, dates,
  amounts and e-mail addresses (``_ - . / : @ # $ % + '``); leading ``$ # (`` and trailing
  punctuation are dropped, so ``$22.30.`` is ``22.30`` and ``#W5557067`` is ``w5557067``.
- Commas between digit groups go first (``1,066`` is ``1066``), as the reference removes
  commas.
- Letters compare without case; a number compares by value (``22.30`` = ``22.3`` =
  ``$22.30``; ``156`` = ``156.00``), never inside another token (``24-hour``, ``2024-05-15``
  and ``W5557067`` are one token each).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from decimal import Decimal, InvalidOperation

__all__ = ["Phrase", "heard_in", "phrase", "tokens"]

Phrase = tuple[str, ...]
"""A fact or a text as normalised tokens."""

_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_TOKEN = re.compile(r"[\w$#@%.:/'+-]+")
_LEAD = "$#('\"-+."
_TRAIL = ".,:;!?'\")-+/%"
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def tokens(text: str) -> Phrase:
    """The text's normalised tokens, in order."""
    cleaned = _THOUSANDS.sub("", text) if "," in text else text
    found = []
    for raw in _TOKEN.findall(cleaned):
        token = raw.lstrip(_LEAD).rstrip(_TRAIL)
        if token.endswith("'s"):
            token = token[:-2]
        if token:
            found.append(_normal(token))
    return tuple(found)


def _normal(token: str) -> str:
    # (a number starts with a digit: its sign, a leading character, was stripped)
    if token[0].isdigit() and _NUMBER.fullmatch(token):
        try:
            value = Decimal(token).normalize()
        except InvalidOperation:  # (the pattern admits only what Decimal reads)
            return token
        return format(value, "f")
    return token.lower()


def phrase(fact: str) -> Phrase:
    """A fact as the run of tokens it must be heard as (empty: nothing to hear)."""
    return tokens(fact)


def heard_in(fact: Phrase, said: Sequence[str] | Iterable[str]) -> bool:
    """True when the tokens of `fact` occur as a contiguous run of `said`."""
    if not fact:
        return False
    words = said if type(said) is tuple or isinstance(said, Sequence) else tuple(said)
    first, size = fact[0], len(fact)
    last = len(words) - size  # the last position a run of `size` tokens can start at
    start = 0
    while start <= last:
        try:
            start = words.index(first, start)  # where the fact's first token is next said
        except ValueError:
            return False
        if start > last:
            return False
        if tuple(words[start : start + size]) == fact:
            return True
        start += 1
    return False
