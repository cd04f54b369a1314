"""The scripted user's reading of plain text: what an agent's message asks of the customer.

LLM agents write prose; the scripted user must still act on it deterministically. Sentences
end at ``. ! ? ; :`` or a line break. The words the readers use are data:
``understanding.toml`` (shared by every domain) and the domain's `RequestLexicon`.

Tool requests (`read_requests`):
    1. **Call syntax.** ``tool_name(key=value, ...)`` naming one of the user's tools is taken
       literally (`tau_env.wrappers.users.arguments.call_syntax`).
    2. **Words.** Otherwise the concept reader (`tau_env.wrappers.users.requests`): an action
       ("turn off", "restart", "check") on an object ("flight mode", "the SIM card"), with
       negations, conditions, questions about state, pronouns and several requests in one
       message; what it cannot map to a tool it reports as not understood. Arguments come
       from the request's words and the user's facts (`tau_env.wrappers.users.arguments`).
Fact questions (`asked_facts`):
    A detail is asked for in a question (or a sentence starting with "what", "which"...), or
    a sentence that asks ("I'll need your email"), that names it: in the shared details'
    words ("booking reference" is a reservation id, "who am I speaking with" a name),
    answered by the first of its keys the user knows; and
    a fact key is asked when every word of the key appears among the other words of such
    sentences (``user_id``: "user", "id"), with synonyms (``understanding.toml``'s
    ``[fallback.fact_words]``: ``id`` ~ number/code, ``zip`` ~ postal/postcode...). Words
    that name one of the domain's objects ("access point names") ask for no detail, and
    neither do details in a restatement of the customer's wish ("you'd like to update your
    email").
Other intents: a transfer announcement (`announces_transfer`), a refusal (`refuses`), a user
    who did not follow an instruction (`did_not_follow`), a claim that the work is done
    (`claims_done`: past-tense outcome words in a sentence that is not a question, not
    conditional and not about the future), an offer or a request for confirmation
    (`offer_decision`) and any question at all (`asks_question`).

Nothing here knows a domain: tool names, schemas, facts and lexicons are inputs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from tau_env.tasks.user_vocabulary import RequestLexicon
from tau_env.wrappers.users.arguments import (
    RequestedCall,
    call_syntax,
    fill_arguments,
    missing_arguments,
)
from tau_env.wrappers.users.phrases import PhraseTable, Words, stem, words_of
from tau_env.wrappers.users.reading import SHARED
from tau_env.wrappers.users.requests import AskedCall, Reading, reader_for

__all__ = [
    "RequestedCall",
    "ToolRequests",
    "announces_transfer",
    "asked_facts",
    "asks_question",
    "claims_done",
    "did_not_follow",
    "mentions",
    "offer_decision",
    "read_requests",
    "refuses",
    "requested_calls",
    "sentences",
]

_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+|\n+")


_TRANSFER = re.compile(
    r"\btransferr?(ed|ing)?\b.*\b(human|agent|representative|specialist|colleague|department)"
    r"|\b(human|live) agent\b.*\b(take over|will help|connect)"
)
_REFUSAL = re.compile(
    r"\b(cannot|can't|can not|unable to|not able to|not allowed|not permitted|not possible|"
    r"impossible|won't be able|am not authori[sz]ed|must decline|have to decline)\b"
)
_DONE = re.compile(
    r"\b(is done|are done|all done|completed|complete now|updated|created|has been|have been|"
    r"is now|are now|all set|successfully|taken care of|resolved|fixed)\b"
)
_NOT_A_CLAIM = re.compile(
    r"\b(when|once|after|if|let me know|tell me|will|going to|shall|should|would|could|"
    r"can you|please|need to|needs to|want me|would you)\b"
)
_NOT_FOLLOWED = re.compile(
    r"\b(say (that|it) again|repeat (that|it|what)|didn't (quite )?(follow|catch|understand)|"
    r"did not (follow|understand)|instead\b|couldn't find|could not find|wasn't sure how|"
    r"not sure how|not sure what|don't understand|do not understand)"
)
"""A user's message saying it did not do what was asked: asking again, doing something else,
or saying it does not understand the request."""


def sentences(text: str) -> list[str]:
    """`text` split into sentences (the end mark stays with its sentence).

    A ``{...}`` object written in the text (``{"account_id": "a1"}``) stays whole.
    """
    if "{" in text:
        text = _BRACES.sub(lambda found: re.sub(r"\s", _KEPT, found.group(0)), text)
        return [
            part.strip().replace(_KEPT, " ")
            for part in _SENTENCE_END.split(text)
            if part and part.strip()
        ]
    return [part.strip() for part in _SENTENCE_END.split(text) if part and part.strip()]


_BRACES = re.compile(r"\{[^{}]*\}")
_KEPT = "\x00"


def _stems(text: str) -> set[str]:
    return set(words_of(text).stems)


def _expand(word: str, table: Mapping[str, frozenset[str]]) -> set[str]:
    return {stem(w) for w in table.get(word, frozenset({word})) | {word}}


def mentions(text: str, phrases: Iterable[str]) -> bool:
    """True when `text` contains one of `phrases` (case-insensitive substring)."""
    lowered = text.lower()
    return any(phrase.lower() in lowered for phrase in phrases if phrase)


def asks_question(text: str) -> bool:
    """True when `text` asks something (a question mark)."""
    return "?" in text


def announces_transfer(text: str) -> bool:
    """True when the agent says the user is being transferred to a human."""
    return _TRANSFER.search(text.lower()) is not None


@lru_cache(maxsize=8192)
def did_not_follow(text: str) -> bool:
    """True when a user's message says it did not do what was asked.

    A novice asks for the instruction again, or says it did something else instead.
    Remembered per text: scripted users repeat their replies, and agents ask of each one.
    """
    return _NOT_FOLLOWED.search(text.lower().replace("’", "'")) is not None


def refuses(text: str) -> bool:
    """True when the agent says it cannot or may not do something."""
    return _REFUSAL.search(text.lower().replace("’", "'")) is not None


def claims_done(text: str, phrases: Sequence[str] = ()) -> bool:
    """True when a sentence states that the work is finished.

    Args:
        text: The agent's message.
        phrases: Task-specific phrases that mean done (the script's ``done_phrases``); they
            count in any sentence that is not a question.
    """
    for sentence in sentences(text.lower()):
        if asks_question(sentence):
            continue
        if phrases and mentions(sentence, phrases):
            return True
        if _DONE.search(sentence) and not _NOT_A_CLAIM.search(sentence):
            return True
    return False


def offer_decision(text: str, accepts: Sequence[str], declines: Sequence[str] = ()) -> bool | None:
    """The user's answer to an offer or a request for confirmation in `text`.

    A question asks for confirmation when it has a confirmation word ("proceed", "is that
    correct", "(yes/no)"), ends with one ("..., correct?") or asks leave for the agent's next
    step ("Should I submit this now?"); it offers when it says "Would you like ...", "Can I
    ...". A sentence that is not a question asks for confirmation with "please confirm" or
    "reply yes", or "let me know if" with a confirmation word ("... if you'd like me to
    proceed"). The words are ``understanding.toml``'s ``[confirmation]``.

    Args:
        text: The agent's message.
        accepts: Keywords of offers the user takes; ``"confirm"`` among them means the user
            confirms plain requests for confirmation.
        declines: Keywords of offers the user turns down (they win over `accepts`).

    Returns:
        None when nothing is offered or asked for confirmation; False when the offer names one
        of `declines`; True when it names one of `accepts` (or is a plain confirmation and
        ``"confirm"`` is accepted); False otherwise.
    """
    return _decision(text, tuple(accepts), tuple(declines))


@lru_cache(maxsize=8192)
def _decision(text: str, accepts: tuple[str, ...], declines: tuple[str, ...]) -> bool | None:
    """`offer_decision` for one text (agents repeat their questions: cached)."""
    said = sentences(text.lower())
    # "Do you want me to close the account? Please confirm.": one confirmation, not an offer.
    asked_to_confirm = any(SHARED.confirmation_requests.find(words_of(s)) for s in said)
    for sentence in said:
        words = words_of(sentence)
        confirming = asked_to_confirm or bool(SHARED.confirmation.find(words))
        if asks_question(sentence):
            confirming = (
                confirming
                or bool(SHARED.asking_leave.find(words))
                or bool(words.stems and words.stems[-1] in SHARED.tags)
            )
            if not (confirming or SHARED.offers.find(words)):
                continue
        elif SHARED.confirmation_requests.find(words):
            confirming = True
        elif not (confirming and SHARED.conditional_requests.find(words)):
            continue
        if declines and _names(sentence, declines):
            return False
        keywords = [a for a in accepts if a.lower() != "confirm"]
        if _names(sentence, keywords):
            return True
        return confirming and any(a.lower() == "confirm" for a in accepts)
    return None


def _names(sentence: str, keywords: Sequence[str]) -> bool:
    """`sentence` names one of `keywords` as a word (stems compared: "cancellation" ~ cancel)."""
    if not keywords:
        return False
    stems = _stems(sentence)
    return any(
        stem(keyword.lower()) in stems or mentions(sentence, [keyword]) for keyword in keywords
    )


# -- facts -------------------------------------------------------------------------------------

_WH = frozenset({"what", "which", "where", "when", "who", "how"})
"""A sentence starting so asks, even cut at a colon ("What is your location: home or ...?")."""


def asked_facts(text: str, keys: Iterable[str], lexicon: RequestLexicon | None = None) -> list[str]:
    """The fact keys `text` asks for, in the order given (see the module docstring).

    Args:
        text: The agent's message.
        keys: The facts the user knows.
        lexicon: The domain's lexicon: its objects' words ask for no detail.
    """
    return list(_asked_facts(text, tuple(keys), lexicon))


@lru_cache(maxsize=8192)
def _asked_facts(
    text: str, keys: tuple[str, ...], lexicon: RequestLexicon | None
) -> tuple[str, ...]:
    table = _fact_table(lexicon)
    concepts = {concept.name: concept for concept in SHARED.facts}
    asked: list[str] = []
    present: set[str] = set()
    for sentence in sentences(text):
        words = words_of(sentence)
        asking = asks_question(sentence) or (words.stems[:1] and words.stems[0] in _WH)
        if not asking and not SHARED.asking.find(words):
            continue
        restated = _restated(words)
        taken: set[int] = set()
        for mention in table.find(words):
            if mention.label is None:  # one of the domain's things ("access point names")
                taken.update(mention.positions)
                continue
            known = [key for key in concepts[mention.label].keys if key in keys]
            if not known:  # the user's own key for it may say more ("new_address")
                continue
            taken.update(mention.positions)
            if not restated[mention.start] and known[0] not in asked:
                asked.append(known[0])
        present |= {stem for i, stem in enumerate(words.stems) if i not in taken}
    found = [
        key
        for key in keys
        if (parts := [p for p in key.lower().split("_") if p])
        and all(_expand(p, SHARED.fact_words) & present for p in parts)
    ]
    # "user_id" and "id" both match "your user id": keep the most specific keys only.
    found = [k for k in found if not any(set(k.split("_")) < set(o.split("_")) for o in found)]
    return tuple(key for key in keys if key in asked or key in found)


@lru_cache(maxsize=64)
def _fact_table(lexicon: RequestLexicon | None) -> PhraseTable[str | None]:
    """The shared details' words, and the domain's objects' words (which ask for none)."""
    entries: list[tuple[str, str | None]] = [
        (phrase, concept.name) for concept in SHARED.facts for phrase in concept.say
    ]
    if lexicon is not None:
        entries += [(phrase, None) for said in lexicon.objects.values() for phrase in said]
    return PhraseTable(entries)


def _restated(words: Words) -> list[bool]:
    """Words in a restatement of the customer's wish, up to the end of the sentence."""
    marked = [False] * len(words)
    for mention in SHARED.restating.find(words):
        for index in range(mention.start, len(words)):
            marked[index] = True
    return marked


# -- tool requests -----------------------------------------------------------------------------


@dataclass(frozen=True)
class ToolRequests:
    """What a message asks the user to do with its tools.

    Attributes:
        calls: The calls, in the order asked.
        unclear: For each request the user did not understand, the thing it named ("" when
            none): the user says it does not understand.
    """

    calls: tuple[RequestedCall, ...] = ()
    unclear: tuple[str, ...] = ()


def read_requests(
    text: str,
    tools: Sequence[Mapping[str, Any]],
    facts: Mapping[str, str] | None = None,
    lexicon: RequestLexicon | None = None,
) -> ToolRequests:
    """The user-tool calls `text` asks for, and the requests not understood.

    Args:
        text: The agent's message.
        tools: The user's tools as OpenAI function schemas.
        facts: What the user knows, to fill arguments (``notification_id`` -> ``notif_1``).
        lexicon: The domain's `RequestLexicon` (None: read by the tools' names).
    """
    key = _tools_key(tools)
    return _requested(text, key, _facts_key(facts or {}), lexicon)


def requested_calls(
    text: str,
    tools: Sequence[Mapping[str, Any]],
    facts: Mapping[str, str] | None = None,
    lexicon: RequestLexicon | None = None,
) -> list[RequestedCall]:
    """The user-tool calls that `text` asks for, in the order asked (`read_requests`)."""
    found = read_requests(text, tools, facts, lexicon).calls
    return [RequestedCall(c.name, dict(c.arguments), c.missing, c.position) for c in found]


def _tools_key(tools: Sequence[Mapping[str, Any]]) -> tuple[tuple[str, ...], int]:
    """A cache key for a tool list (its names and identity), registering its schemas."""
    key = _KEY_OF.get(id(tools))
    if key is None or _SCHEMAS_OF.get(key) is not tools:
        key = (tuple(t["function"]["name"] for t in tools), id(tools))
        _SCHEMAS[key] = {t["function"]["name"]: t["function"] for t in tools}
        _SCHEMAS_OF[key] = tools
        _KEY_OF[id(tools)] = key
    return key


def _facts_key(facts: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    cached = _FACTS_KEY.get(id(facts))
    if cached is not None and cached[0] is facts:
        return cached[1]
    key = tuple(sorted(facts.items()))
    if len(_FACTS_KEY) > 4096:
        _FACTS_KEY.clear()
    _FACTS_KEY[id(facts)] = (facts, key)
    return key


_KEY_OF: dict[int, tuple[tuple[str, ...], int]] = {}
_FACTS_KEY: dict[int, tuple[Mapping[str, str], tuple[tuple[str, str], ...]]] = {}
_SCHEMAS: dict[tuple[tuple[str, ...], int], dict[str, Mapping[str, Any]]] = {}
_SCHEMAS_OF: dict[tuple[tuple[str, ...], int], Sequence[Mapping[str, Any]]] = {}


@lru_cache(maxsize=8192)
def _requested(
    text: str,
    key: tuple[tuple[str, ...], int],
    facts: tuple[tuple[str, str], ...],
    lexicon: RequestLexicon | None,
) -> ToolRequests:
    """`read_requests` for one text, tool list, facts and lexicon (texts recur: cached)."""
    schemas = _SCHEMAS[key]
    explicit = call_syntax(text, schemas)
    if explicit:
        return ToolRequests(tuple(explicit))
    reading = _reading(text, key[0], lexicon)
    known = dict(facts)
    words = lexicon.parameters if lexicon is not None else {}
    calls: list[RequestedCall] = []
    for index, call in enumerate(reading.calls):
        schema = schemas[call.name]
        scope = _scope(reading, index)
        arguments = fill_arguments(schema, scope, known, call.values, words)
        missing = missing_arguments(schema, arguments)
        takes = bool(schema.get("parameters", {}).get("properties"))  # a switch takes none
        if takes and not call.values and _asked_before(calls, call.name, arguments, missing):
            continue  # "Could you grant it?" after the permission was asked: the same request
        calls.append(RequestedCall(call.name, arguments, missing, _offset(call)))
    return ToolRequests(tuple(calls), reading.unclear)


@lru_cache(maxsize=8192)
def _reading(text: str, tool_names: tuple[str, ...], lexicon: RequestLexicon | None) -> Reading:
    """What `text` asks of these tools, before arguments are filled from the facts.

    Cached apart from `_requested`, which is also keyed on the customer's facts: the same
    message (a probe's, an agent's stock sentence) reaches customers with other facts, and
    reading it is most of the cost (the reading never looks at the facts).
    """
    return reader_for(lexicon, tool_names).read(sentences(text))


def _asked_before(
    calls: Sequence[RequestedCall], name: str, arguments: Mapping[str, Any], missing: Sequence[str]
) -> bool:
    """A request without values of its own that names nothing new.

    Asked already with these arguments, or left without some while the tool was asked before.
    """
    earlier = [call for call in calls if call.name == name]
    return bool(earlier) and (bool(missing) or any(c.arguments == arguments for c in earlier))


def _scope(reading: Reading, index: int) -> str:
    """The sentences of request `index`: from after the previous request's to the next one's.

    Its own sentence first: a value it names wins over one named around it.
    """
    calls = reading.calls
    own = calls[index].sentence
    earlier = [c.sentence for c in calls[:index] if c.sentence < own]
    later = [c.sentence for c in calls[index + 1 :] if c.sentence > own]
    first = earlier[-1] + 1 if earlier else 0
    last = later[0] if later else len(reading.sentences)
    around = reading.sentences[first:own] + reading.sentences[own + 1 : last]
    return " ".join((reading.sentences[own], *around))


def _offset(call: AskedCall) -> int:
    """An order key for a call: sentences first, then words."""
    return call.sentence * 10_000 + call.position
