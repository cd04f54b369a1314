"""The words every domain's scripted user reads with (``understanding.toml``, read once).

`SHARED` holds them: the actions requests name (turn off, restart, check...), the words that
shape how a sentence is read (negations, conditions, who acts, polite request forms), the
details a customer is asked for (`FactConcept`) and how a confirmation is asked. The readers
are `tau_env.wrappers.users.requests` (tool requests) and `tau_env.wrappers.users.matcher`
(facts, confirmations and the other intents); a domain adds its own words in its
`tau_env.tasks.user_vocabulary.RequestLexicon`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from tau_env.data_files import builtin_toml
from tau_env.wrappers.users.phrases import PhraseTable, stem

__all__ = ["SHARED", "FactConcept", "SharedWords"]


@dataclass(frozen=True)
class FactConcept:
    """A detail a customer may be asked for.

    Attributes:
        name: The detail ("user_id", "zip").
        keys: The brief's fact keys that answer it, in order of preference.
        say: How an agent asks for it.
    """

    name: str
    keys: tuple[str, ...]
    say: tuple[str, ...]


@dataclass(frozen=True, eq=False)
class SharedWords:
    """The shared words, as phrase tables and sets of stems (see ``understanding.toml``)."""

    actions: Mapping[str, tuple[str, ...]]
    weak: frozenset[str]
    corrections: PhraseTable[str]
    negations: PhraseTable[str]
    subordinate: PhraseTable[str]
    clause_breaks: PhraseTable[str]
    locations: PhraseTable[str]
    controls: frozenset[str]
    pronouns: frozenset[str]
    be: frozenset[str]
    state_questions: frozenset[str]
    auxiliaries: frozenset[str]
    modals: frozenset[str]
    agent_subjects: frozenset[str]
    describers: frozenset[str]
    request_markers: PhraseTable[str]
    conversation_verbs: frozenset[str]
    restating: PhraseTable[str]
    asking: PhraseTable[str]
    facts: tuple[FactConcept, ...]
    confirmation: PhraseTable[str]
    tags: frozenset[str]
    asking_leave: PhraseTable[str]
    offers: PhraseTable[str]
    confirmation_requests: PhraseTable[str]
    conditional_requests: PhraseTable[str]
    fallback_verbs: Mapping[str, tuple[str, ...]]
    fallback_nouns: Mapping[str, tuple[str, ...]]
    fact_words: Mapping[str, frozenset[str]]


def _table(phrases: list[str], label: str = "") -> PhraseTable[str]:
    return PhraseTable((phrase, label or phrase) for phrase in phrases)


def _stems(words: list[str]) -> frozenset[str]:
    return frozenset(stem(word) for word in words)


def _read() -> SharedWords:
    data = builtin_toml(__package__, "understanding.toml")
    words = data["words"]
    confirmation = data["confirmation"]
    return SharedWords(
        actions={name: tuple(said) for name, said in data["actions"].items()},
        weak=frozenset(words["weak"]),
        corrections=_table(words["corrections"], "correction"),
        negations=_table(words["negations"], "not"),
        subordinate=_table(words["subordinate"], "if"),
        clause_breaks=_table(words["clause_breaks"], "break"),
        locations=_table(words["locations"], "in"),
        controls=frozenset(words["controls"]),
        pronouns=_stems(words["pronouns"]),
        be=_stems(words["be"]),
        state_questions=_stems(words["state_questions"]),
        auxiliaries=_stems(words["auxiliaries"]),
        modals=_stems(words["modals"]),
        agent_subjects=_stems(words["agent_subjects"]),
        describers=_stems(words["describers"]),
        request_markers=_table(words["request_markers"], "ask"),
        conversation_verbs=_stems(words["conversation_verbs"]),
        restating=_table(words["restating"], "restating"),
        asking=_table(words["asking"], "asking"),
        facts=tuple(
            FactConcept(name, tuple(entry["keys"]), tuple(entry["say"]))
            for name, entry in data["facts"].items()
        ),
        confirmation=_table(confirmation["say"], "confirm"),
        tags=_stems(confirmation["tags"]),
        asking_leave=_table(confirmation["asking_leave"], "leave"),
        offers=_table(confirmation["offers"], "offer"),
        confirmation_requests=_table(confirmation["requests"], "request"),
        conditional_requests=_table(confirmation["conditional_requests"], "if"),
        fallback_verbs={verb: tuple(a) for verb, a in data["fallback"]["verbs"].items()},
        fallback_nouns={noun: tuple(w) for noun, w in data["fallback"]["nouns"].items()},
        fact_words={word: frozenset(w) for word, w in data["fallback"]["fact_words"].items()},
    )


SHARED = _read()
"""The shared words (read at import: a few hundred phrases)."""
