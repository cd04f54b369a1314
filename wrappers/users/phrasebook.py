"""How a customer says things in other words: the scripted user's phrasebook.

The phrasebook is data (`phrasebook.toml`, next to this module), read once at import.

`REWRITES` are phrase-level: ``(pattern, alternatives)``, the pattern a regex over one
first-person sentence, each alternative a replacement (a backslash and a digit stand for the
pattern's groups). They change how a wish is put ("I want to" -> "I'd like to"), its linking
words ("because" -> "since"), idioms ("told me not to" -> "said I shouldn't") and the
customer's hold on its records ("cancel order #W1" -> "cancel my order #W1"). `SYNONYMS` are
word-level, for variety and to break a copied run. Neither ever replaces what the customer
wants or the things it concerns (cancel, book, exchange, return, swap, change, refund, order,
reservation, bags, mobile data, MMS...), so an agent that reads the wish reads the same one.

Alternatives ending a sentence as a question ("Could you tell me ...") make the sentence end in
``?`` (`paraphrase` sees to it).
"""

from __future__ import annotations

from tau_env.data_files import builtin_toml

__all__ = ["CONNECTORS", "LINKS", "QUESTION_STARTS", "REWRITES", "SYNONYMS"]

_BOOK = builtin_toml(__package__, "phrasebook.toml")

REWRITES: tuple[tuple[str, tuple[str, ...]], ...] = tuple(
    (pattern, tuple(alternatives)) for pattern, alternatives in _BOOK["rewrites"]
)
"""(pattern, alternatives): phrase-level rewrites; one alternative is chosen per sentence."""

QUESTION_STARTS: tuple[str, ...] = tuple(_BOOK["question_starts"])
"""Alternatives that turn a statement into a question (its end becomes ``?``)."""

SYNONYMS: dict[str, tuple[str, ...]] = {
    word: tuple(others) for word, others in _BOOK["synonyms"].items()
}
"""Everyday words and what a customer may say instead (never a word of the wish itself)."""

CONNECTORS: tuple[str, ...] = tuple(_BOOK["connectors"])
"""Words a sentence may start with when a copied run crosses into it from the one before."""

LINKS: frozenset[str] = frozenset(_BOOK["links"])
"""Words a filler reads naturally before ("..., you know, and then...")."""
