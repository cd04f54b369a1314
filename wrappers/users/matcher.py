"""The scripted user's reading of plain text: a documented keyword and intent matcher.

LLM agents write prose; the scripted user must still act on it deterministically. The rules,
applied sentence by sentence (sentences end at ``. ! ? ; :`` or a line break):

Tool requests (`requested_calls`):
    1. **Call syntax.** ``tool_name(key=value, ...)`` naming one of the user's tools is taken
       literally; values may be JSON or Python literals, or bare words (``mode=4g_only``).
    2. **Phrases.** Otherwise a tool is requested when a sentence holds every *noun* of its
       name and one of its *verbs*. A tool name splits into a verb (first word) and nouns
       (the rest): ``toggle_airplane_mode`` -> verb ``toggle``, nouns ``airplane``, ``mode``.
       Verbs and nouns have synonyms (`VERB_SYNONYMS`, `NOUN_SYNONYMS`: "restart your phone"
       requests ``reboot_device``); words are compared after light stemming ("notifications"
       = "notification"), and a noun also matches a word sharing its first five letters
       ("preferred" for ``preference``). In questions, only read tools (verb ``check``,
       ``can``...) match unless a strong action verb is present, so "Is airplane mode on?"
       toggles nothing.
       When one matched tool's nouns are a strict subset of another's, the more specific one
       wins ("data saver mode" is not also "data"). Sentences with a negation ("don't",
       "do not", "never") are skipped. Arguments come from enum values named in the text,
       from the user's facts of the same key, then from id-like tokens (``notif_1``).
Fact questions (`asked_facts`):
    A fact key is asked for when every word of the key (``user_id`` -> ``user``, ``id``)
    appears in the text, with synonyms (``id`` ~ number/code, ``zip`` ~ postal/postcode...).
Other intents: a transfer announcement (`announces_transfer`), a refusal (`refuses`), a user
    who did not follow an instruction (`did_not_follow`), a claim
    that the work is done (`claims_done`: past-tense outcome words in a sentence that is not a
    question, not conditional and not about the future), an offer or a request for
    confirmation (`offer_decision`) and any question at all (`asks_question`).

Nothing here knows a domain: tool names, schemas and facts are inputs.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

__all__ = [
    "NOUN_SYNONYMS",
    "VERB_SYNONYMS",
    "RequestedCall",
    "announces_transfer",
    "asked_facts",
    "asks_question",
    "claims_done",
    "did_not_follow",
    "mentions",
    "offer_decision",
    "refuses",
    "requested_calls",
    "sentences",
]

VERB_SYNONYMS: dict[str, frozenset[str]] = {
    "check": frozenset({"check", "look", "see", "show", "view", "what", "tell", "read", "verify"}),
    "toggle": frozenset(
        {"toggle", "turn", "switch", "enable", "disable", "activate", "deactivate"}
    ),
    "set": frozenset({"set", "change", "switch", "select", "configure", "use"}),
    "reset": frozenset({"reset", "restore"}),
    "reboot": frozenset({"reboot", "restart"}),
    "run": frozenset({"run", "do", "perform", "try", "test", "start"}),
    "reseat": frozenset({"reseat", "reinsert", "insert", "remove"}),
    "connect": frozenset({"connect", "join", "enable"}),
    "disconnect": frozenset({"disconnect", "disable"}),
    "grant": frozenset({"grant", "allow", "give", "enable", "add"}),
    "make": frozenset({"make", "pay", "complete", "submit"}),
    "can": frozenset({"can", "try", "able", "check", "test"}),
    "dismiss": frozenset({"dismiss", "clear", "mark", "delete"}),
}
"""Verb of a tool name -> words that request it. Unlisted verbs match only themselves."""

NOUN_SYNONYMS: dict[str, frozenset[str]] = {
    "device": frozenset({"device", "phone", "handset"}),
    "notification": frozenset({"notification", "alert", "inbox"}),
    "payment": frozenset({"payment", "bill", "pay"}),
    "setting": frozenset({"setting", "configuration", "config"}),
    "mms": frozenset({"mms", "picture", "multimedia"}),
    "restriction": frozenset({"restriction", "saver", "limit"}),
}
"""Noun of a tool name -> words that stand for it."""

_READ_VERBS = frozenset({"check", "can", "get", "run", "show", "list", "find", "view"})
_WEAK_IN_QUESTIONS = frozenset({"what", "see", "show", "tell", "read", "look", "view"})
_NEGATION = re.compile(r"\b(don'?t|do not|never|no need to|not necessary)\b")
_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+|\n+")
_WORD = re.compile(r"[a-z0-9]+")
_ID_TOKEN = re.compile(r"\b[A-Za-z]+[_-]?\d+[\w-]*\b")
_CALL = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*\(([^()]*)\)")

_FACT_WORD_SYNONYMS: dict[str, frozenset[str]] = {
    "id": frozenset({"id", "identifier", "number", "code"}),
    "number": frozenset({"number", "num"}),
    "zip": frozenset({"zip", "zipcode", "postal", "postcode"}),
    "email": frozenset({"email", "mail"}),
    "phone": frozenset({"phone", "mobile", "cell"}),
    "name": frozenset({"name"}),
    "address": frozenset({"address", "live", "street"}),
    "dob": frozenset({"dob", "birth", "birthday"}),
}

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
_OFFER = re.compile(
    r"\b(would you like|do you want|shall i|should i|may i|can i|want me to|like me to|"
    r"do you agree|is that ok(ay)?|are you ok(ay)? with)\b"
)
_CONFIRMATION = re.compile(
    r"\b(confirm|proceed|go ahead)\b|\bis (that|this) (correct|right)\b|\bare you sure\b"
)
_NOT_FOLLOWED = re.compile(
    r"\b(say (that|it) again|repeat (that|it|what)|didn't (quite )?(follow|catch|understand)|"
    r"did not (follow|understand)|instead\b|couldn't find|could not find|wasn't sure how|"
    r"not sure how)"
)
_CONFIRMATION_REQUEST = re.compile(
    r"\bplease confirm\b|\b(reply|answer|respond|say) (with )?['\"]?yes\b"
)


@dataclass(frozen=True)
class RequestedCall:
    """A user-tool call read from the agent's text.

    Attributes:
        name: The user tool.
        arguments: Arguments found for it.
        missing: Required arguments that could not be found in the text or the facts.
        position: Where in the text it was requested (orders several requests).
    """

    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    missing: tuple[str, ...] = ()
    position: int = 0


def sentences(text: str) -> list[str]:
    """`text` split into sentences (the end mark stays with its sentence)."""
    return [part.strip() for part in _SENTENCE_END.split(text) if part and part.strip()]


@lru_cache(maxsize=8192)
def _stem(word: str) -> str:
    """A crude, consistent stem: enough to equate plurals and -ing/-ed forms.

    Cached: the scripted user stems the same few hundred words (the agent's text, the tool
    and fact names with their synonyms) on every turn, and a stem depends on the word only.
    """
    for suffix, minimum in (("ing", 6), ("ed", 5), ("es", 5), ("s", 4)):
        if word.endswith(suffix) and len(word) >= minimum:
            word = word[: -len(suffix)]
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


def _words(text: str) -> list[str]:
    normalized = text.lower().replace("wi-fi", "wifi").replace("e-mail", "email")
    return _WORD.findall(normalized)


def _stems(text: str) -> set[str]:
    return {_stem(word) for word in _words(text)}


def _expand(word: str, table: Mapping[str, frozenset[str]]) -> set[str]:
    return {_stem(w) for w in table.get(word, frozenset({word})) | {word}}


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
    for sentence in sentences(text.lower()):
        confirming = _CONFIRMATION.search(sentence) is not None
        if asks_question(sentence):
            if not (confirming or _OFFER.search(sentence)):
                continue
        elif _CONFIRMATION_REQUEST.search(sentence):
            confirming = True
        else:
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
        _stem(keyword.lower()) in stems or mentions(sentence, [keyword]) for keyword in keywords
    )


def asked_facts(text: str, keys: Iterable[str]) -> list[str]:
    """The fact keys `text` asks for, in the order given."""
    return list(_asked_facts(text, tuple(keys)))


@lru_cache(maxsize=8192)
def _asked_facts(text: str, keys: tuple[str, ...]) -> tuple[str, ...]:
    present = _stems(text)
    found = []
    for key in keys:
        parts = [p for p in key.lower().split("_") if p]
        if parts and all(_expand(p, _FACT_WORD_SYNONYMS) & present for p in parts):
            found.append(key)
    # "user_id" and "id" both match "your user id": keep the most specific keys only.
    return tuple(k for k in found if not any(set(k.split("_")) < set(o.split("_")) for o in found))


# -- tool requests -----------------------------------------------------------------------------


def requested_calls(
    text: str,
    tools: Sequence[Mapping[str, Any]],
    facts: Mapping[str, str] | None = None,
) -> list[RequestedCall]:
    """The user-tool calls that `text` asks for, in the order they are mentioned.

    Args:
        text: The agent's message.
        tools: The user's tools as OpenAI function schemas.
        facts: What the user knows, to fill arguments (``notification_id`` -> ``notif_1``).
    """
    key = _tools_key(tools)
    found = _requested(text, key, _facts_key(facts or {}))
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
    text: str, key: tuple[tuple[str, ...], int], facts: tuple[tuple[str, str], ...]
) -> tuple[RequestedCall, ...]:
    """`requested_calls` for one text, tool list and facts (the same texts recur: cached)."""
    schemas = _SCHEMAS[key]
    explicit = _call_syntax(text, schemas)
    if explicit:
        return tuple(explicit)
    return tuple(_phrase_calls(text, schemas, dict(facts)))


def _call_syntax(text: str, schemas: Mapping[str, Mapping[str, Any]]) -> list[RequestedCall]:
    calls = []
    for match in _CALL.finditer(text):
        name = match.group(1)
        if name not in schemas:
            continue
        arguments = _as_declared(schemas[name], _parse_arguments(match.group(2)))
        calls.append(
            RequestedCall(
                name, arguments, _missing(schemas[name], arguments), position=match.start()
            )
        )
    return calls


def _as_declared(schema: Mapping[str, Any], arguments: dict[str, Any]) -> dict[str, Any]:
    """JSON text back for string parameters written as objects (``arguments={"a": 1}``)."""
    properties = schema.get("parameters", {}).get("properties", {})
    return {
        key: json.dumps(value)
        if isinstance(value, dict | list) and properties.get(key, {}).get("type") == "string"
        else value
        for key, value in arguments.items()
    }


def _parse_arguments(text: str) -> dict[str, Any]:
    """``k=v, ...`` with literal or bare values (bare values run to the next ``, key=``)."""
    arguments: dict[str, Any] = {}
    if not text.strip():
        return arguments
    try:
        call = ast.parse(f"f({text})", mode="eval").body
        if isinstance(call, ast.Call) and not call.args:
            for keyword in call.keywords:
                if keyword.arg is not None:
                    arguments[keyword.arg] = ast.literal_eval(keyword.value)
            return arguments
    except (SyntaxError, ValueError, RecursionError):  # (nested deeper than Python goes)
        pass
    for part in re.split(r",\s*(?=[A-Za-z_][A-Za-z0-9_]*\s*=)", text):
        key, sep, value = part.partition("=")
        if sep:
            arguments[key.strip()] = _literal(value.strip())
    return arguments


def _literal(value: str) -> Any:
    for parse in (json.loads, ast.literal_eval):
        try:
            return parse(value)
        except (ValueError, SyntaxError, RecursionError):
            continue
    return value.strip("'\"")


def _missing(schema: Mapping[str, Any], arguments: Mapping[str, Any]) -> tuple[str, ...]:
    required = schema.get("parameters", {}).get("required", [])
    return tuple(name for name in required if name not in arguments)


def _phrase_calls(
    text: str, schemas: Mapping[str, Mapping[str, Any]], facts: Mapping[str, str]
) -> list[RequestedCall]:
    found: dict[str, RequestedCall] = {}
    nouns_of: dict[str, set[str]] = {}
    followers: dict[str, set[str]] = {}  # the word after each of a tool's nouns
    offset = 0
    for sentence in sentences(text):
        start = text.find(sentence, offset)
        offset = max(offset, start)
        lowered = sentence.lower()
        if _NEGATION.search(lowered.replace("’", "'")):
            continue
        words = _words(sentence)
        stems = [_stem(w) for w in words]
        question = asks_question(sentence)
        for name, schema in schemas.items():
            if name in found:
                continue
            verb, *nouns = name.lower().split("_")
            verbs = _expand(verb, VERB_SYNONYMS)
            if question and verb not in _READ_VERBS:
                verbs -= {_stem(w) for w in _WEAK_IN_QUESTIONS}
            noun_options = [_expand(n, NOUN_SYNONYMS) for n in nouns]
            if not verbs & set(stems) or not all(_present(o, stems) for o in noun_options):
                continue
            positions = [i for i, s in enumerate(stems) if any(_alike(s, o) for o in noun_options)]
            followers[name] = {stems[i + 1] if i + 1 < len(stems) else "" for i in positions}
            arguments = _fill_arguments(schema, sentence, facts)
            found[name] = RequestedCall(
                name,
                arguments,
                _missing(schema, arguments),
                position=start + (min(positions) if positions else 0),
            )
            nouns_of[name] = set(nouns)
    specific = [
        call
        for name, call in found.items()
        if not any(other != name and nouns_of[name] < nouns_of[other] for other in found)
        and not _modifies(followers[name], name, nouns_of)
    ]
    return sorted(specific, key=lambda call: call.position)


def _modifies(following: set[str], name: str, nouns_of: Mapping[str, set[str]]) -> bool:
    """True when every noun of `name` is followed by a noun of another tool.

    In "data roaming", data qualifies roaming: ``toggle_data`` is not asked for.
    """
    others = {
        stem
        for other, nouns in nouns_of.items()
        if other != name
        for noun in nouns
        for stem in _expand(noun, NOUN_SYNONYMS)
    }
    return bool(following) and following <= others


def _alike(stem: str, options: set[str]) -> bool:
    """`stem` is one of `options`, or shares a prefix of 5+ letters with one ("preferred")."""
    return stem in options or any(
        len(stem) >= 5 and len(o) >= 5 and stem[:5] == o[:5] for o in options
    )


def _present(options: set[str], stems: Sequence[str]) -> bool:
    return any(_alike(stem, options) for stem in stems)


_LISTED = re.compile(r"(?:one of|e\.g\.|:)\s*([\w ,]+?)\s*(?:\.|$)", re.IGNORECASE)


@lru_cache(maxsize=1024)
def _listed_options(description: str) -> tuple[str, ...]:
    """Values a parameter's description lists ("One of a, b or c.", "e.g. messaging")."""
    options: list[str] = []
    for found in _LISTED.finditer(description):
        for part in re.split(r",\s*|\s+or\s+", found.group(1)):
            if re.fullmatch(r"[a-z0-9_]+", part.strip()):
                options.append(part.strip())
    return tuple(options)


def _fill_arguments(
    schema: Mapping[str, Any], sentence: str, facts: Mapping[str, str]
) -> dict[str, Any]:
    properties: Mapping[str, Any] = schema.get("parameters", {}).get("properties", {})
    squashed = re.sub(r"[^a-z0-9]", "", sentence.lower())
    ids = list(_ID_TOKEN.findall(sentence))
    arguments: dict[str, Any] = {}
    for name, prop in properties.items():
        options = prop.get("enum") or _listed_options(prop.get("description", ""))
        if options:
            named = [o for o in options if re.sub(r"[^a-z0-9]", "", str(o).lower()) in squashed]
            if named:
                arguments[name] = max(named, key=lambda o: len(str(o)))
                continue
            if prop.get("enum"):
                continue
        if name in facts and (facts[name] in sentence or not ids):
            arguments[name] = facts[name]
        elif name.endswith("_id") and ids:
            arguments[name] = ids.pop(0)
        elif name in facts:
            arguments[name] = facts[name]
    return arguments
