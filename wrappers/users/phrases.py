"""Words and phrases for the scripted user's reading: normalising, stemming, finding phrases.

A sentence is normalised (lower case, contractions spelled out: "don't" -> "do not", "it's" ->
"it is", possessives dropped; "Wi-Fi" -> "wifi", "re-insert" -> "reinsert", other hyphens and
slashes split words), cut into words (identifiers such as ``notif_1`` stay whole; ``,``, ``;``
and the ``>`` of a menu path are words of their own, so that no phrase runs across them) and
each word lightly stemmed (`stem`: "restarting", "restarted", "restarts" -> "restart").

A `PhraseTable` finds known phrases in the words: a phrase is words in order, where ``…``
stands for up to `MAX_GAP` words ("turn … off" reads "turn airplane mode off"). Where found
phrases share a word, the one with more words is kept (then the earlier one), so "data saver"
is read rather than "data".
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Generic, TypeVar

__all__ = ["GAP", "MAX_GAP", "Mention", "PhraseTable", "Words", "stem", "words_of"]

L = TypeVar("L", bound=Hashable)

GAP = "…"
"""Stands for up to `MAX_GAP` words in a phrase."""

MAX_GAP = 4

_CONTRACTIONS = (
    (re.compile(r"\bcan't\b"), "can not"),
    (re.compile(r"\bwon't\b"), "will not"),
    (re.compile(r"\blet's\b"), "let us"),
    (re.compile(r"n't\b"), " not"),
    (re.compile(r"'ll\b"), " will"),
    (re.compile(r"'ve\b"), " have"),
    (re.compile(r"'re\b"), " are"),
    (re.compile(r"'m\b"), " am"),
    (re.compile(r"'d\b"), " would"),
    (re.compile(r"\b(it|that|what|there|here|who|where|how|this)'s\b"), r"\1 is"),
    (re.compile(r"'s\b"), ""),
)
_JOINED = (
    (re.compile(r"\bwi-?fi\b"), "wifi"),
    (re.compile(r"\be-mail\b"), "email"),
    (re.compile(r"\bre-(?=[a-z])"), "re"),
)
_WORD = re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)*|[,;>]")
_BREAKS = frozenset({",", ";", ">"})
"""Words no phrase runs across: ``,`` ``;`` and the ``>`` of a menu path."""
_KEEP = frozenset({"is", "as", "us", "was", "has", "yes", "this", "its", "sms", "mms", "ios"})
_OWN_STEM = {"setting": "setting", "settings": "setting", "messaging": "messaging"}
"""Words whose light stem would be another word's ("settings" is not "set", "messaging" is
not "message")."""


@lru_cache(maxsize=16384)
def stem(word: str) -> str:
    """A light, consistent stem: plural, -ing, -ed and a final e taken off.

    Identifiers (with ``_``) and numbers stay as they are. Cached: the same words recur.
    """
    if "_" in word or not word.isalpha() or word in _KEEP:
        return word
    if word in _OWN_STEM:
        return _OWN_STEM[word]
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("es") and len(word) > 4 and word[-3] in "sxz":
        word = word[:-2]
    elif word.endswith("s") and len(word) > 3 and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if word.endswith("ing") and len(word) > 5:
        word = word[:-3]
    elif word.endswith("ed") and len(word) > 4:
        word = word[:-2]
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
        word = word[:-1]  # "stopped" -> "stopp" -> "stop"
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


def normalised(text: str) -> str:
    """`text` in lower case, with contractions and joined words spelled as `words_of` reads."""
    text = text.lower().replace("’", "'").replace("‘", "'")
    for pattern, said in _JOINED:
        text = pattern.sub(said, text)
    for pattern, said in _CONTRACTIONS:
        text = pattern.sub(said, text)
    return text


@dataclass(frozen=True)
class Words:
    """A text's words: as written (normalised) and stemmed, in order."""

    surface: tuple[str, ...]
    stems: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.stems)


@lru_cache(maxsize=8192)
def words_of(text: str) -> Words:
    """The words of `text` (see the module docstring). Cached: texts recur."""
    surface = tuple(_WORD.findall(normalised(text)))
    return Words(surface, tuple(stem(word) for word in surface))


def phrase_key(phrase: str) -> tuple[str, ...]:
    """A phrase as stems, with `GAP` where it says ``…``."""
    parts = normalised(phrase).replace("...", f" {GAP} ").replace(GAP, f" {GAP} ").split()
    stems: list[str] = []
    for part in parts:
        if part == GAP:
            stems.append(GAP)
        else:
            stems.extend(stem(word) for word in _WORD.findall(part))
    return tuple(stems)


@dataclass(frozen=True)
class Mention(Generic[L]):
    """A phrase found in a text.

    Attributes:
        label: What the phrase stands for.
        positions: The indices of the words it matched (not the words a gap skipped).
    """

    label: L
    positions: tuple[int, ...]

    @property
    def start(self) -> int:
        """Its first word."""
        return self.positions[0]

    @property
    def end(self) -> int:
        """Its last word."""
        return self.positions[-1]


class PhraseTable(Generic[L]):
    """Phrases with their labels; finds them in a text's words (see the module docstring).

    A phrase may carry several labels (one phrase, several meanings): found, it is one
    mention per label.
    """

    def __init__(self, entries: Iterable[tuple[str, L]]) -> None:
        self._by_first: dict[str, list[tuple[tuple[str, ...], L]]] = {}
        for phrase, label in entries:
            key = phrase_key(phrase)
            if key and key[0] != GAP:
                self._by_first.setdefault(key[0], []).append((key, label))

    def find(self, words: Words | Sequence[str]) -> list[Mention[L]]:
        """The phrases in `words` (stems), longest first where they overlap, in text order."""
        stems = words.stems if isinstance(words, Words) else tuple(words)
        found: list[Mention[L]] = []
        for index, first in enumerate(stems):
            for key, label in self._by_first.get(first, ()):
                positions = _match(stems, index, key)
                if positions is not None:
                    found.append(Mention(label, positions))
        found.sort(key=lambda m: (-len(m.positions), m.start))
        taken: dict[int, tuple[int, ...]] = {}
        kept: list[Mention[L]] = []
        for mention in found:
            owner = [taken[p] for p in mention.positions if p in taken]
            if owner and any(o != mention.positions for o in owner):
                continue  # a longer (or earlier) phrase holds one of its words
            if mention in kept:
                continue  # two spellings of one phrase ("apn setting", "apn settings")
            taken.update(dict.fromkeys(mention.positions, mention.positions))
            kept.append(mention)
        return sorted(kept, key=lambda m: (m.start, m.end))


def _match(stems: Sequence[str], index: int, key: tuple[str, ...]) -> tuple[int, ...] | None:
    """The positions where `key` matches from `index` (gaps skip up to `MAX_GAP` words)."""
    positions: list[int] = []
    at = index
    k = 0
    while k < len(key):
        part = key[k]
        if part == GAP:
            following = key[k + 1]
            limit = min(len(stems), at + MAX_GAP + 1)
            skip = next(
                (i for i in range(at, limit) if stems[i] == following),
                None,
            )
            if skip is None or any(stems[i] in _BREAKS for i in range(at, skip)):
                return None
            at = skip
            k += 1
            continue
        if at >= len(stems) or stems[at] != part:
            return None
        positions.append(at)
        at += 1
        k += 1
    return tuple(positions)
