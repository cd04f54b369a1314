"""How the scripted user reads what an agent asks it to do with its tools: a concept reader.

A request is an *action* on an *object*: "Could you flip the mobile data switch?" is the
action ``switch`` on the object ``mobile_data``, which ``toggle_data`` answers. The domain's
`RequestLexicon` names its objects, which tool answers which action on which object, and the
words for parameter values; the shared words (``understanding.toml``) name the actions and
the words that shape a sentence. A domain without a lexicon is read by the words of its tools'
names (``dismiss_notification``: the action "dismiss" on a "notification").

Sentence by sentence (`tau_env.wrappers.users.matcher.sentences`; ``,`` ``;`` and words such
as "then" or "but" end a clause):

1. **Actions that count.** Not in a negated clause part ("don't", "no need to", "instead of",
   "leave ... on": to the end of the clause), not in a condition ("if", "once", "after"...: to
   the end of the clause; a purpose: "so your apps can ..."), not the agent's own ("I'll
   reset your line", "let me check"), not a description ("it looks like", "mobile data looks
   fine"), not something
   the customer already did ("you've restarted"), not a state ("is turned on"; in a
   question such as "Is Wi-Fi on?" every switch word is a state).
2. **Objects.** Each object (or a named parameter value: "SMS" is a permission) takes the
   nearest action before it in the sentence that some tool answers on it; in a question that
   asks for no action and offers nothing ("Would you like me to refuel data?"), an object is
   asked about: its state's check (`shown_by`: "Is Wi-Fi
   on?" -> ``check_wifi_status``). Of several objects one action takes, those named as a place
   ("on your phone", "in your network settings") and the phone that holds the others are
   left out. A sentence broken off ("...") and taken back by the next ("actually, ...") is
   not read. A question of things alone right after a colon ("which network mode it is set
   to: 5G, 4G or 3G?") lists the options of the sentence before it and asks nothing itself.
3. **Actions without an object** take what "it" stands for: the first object of the latest
   clause that names one ("Airplane mode blocks every radio, so make sure it's off"), the
   phone itself last; or the tool that needs none ("Please restart."). A look without an
   object takes one only when a pronoun says so ("tell me what it shows", not "let me know
   what happens"). An action right before another ("try restarting", "tap Connect") is part
   of it; going somewhere ("open Settings > VPN") is part of what is done there, and a look
   when nothing is.
4. **Tools.** The objects one action takes are one request when a single tool answers all of
   them ("the messaging app's permissions": ``check_app_permissions``), else one request each
   ("turn off airplane mode and mobile data"). A parameter given two values ("the SMS and
   storage permissions") is one request per value, unless one follows "to" ("from 2G only to
   4G/5G"). A tool asked twice is run once, except a switch asked on and then off.
5. **Not understood.** An action asked of the customer (starting its clause, or done by
   "you"; other than looking or trying) that no tool answers ("Please turn on Bluetooth"), or
   a polite request whose verb is neither one of the customer's actions
   nor part of the conversation ("Could you calibrate your battery?"), in a sentence that asks
   for nothing the customer can do: the customer says it does not understand. In a message
   with requests it understood, only such a sentence about a thing it named counts ("Restart
   your phone. Then clear the cache of the messaging app.").

Everything is deterministic and cached per (text, lexicon, tools).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from tau_env.tasks.user_vocabulary import RequestLexicon, ToolWords
from tau_env.wrappers.users.phrases import PhraseTable, words_of
from tau_env.wrappers.users.reading import SHARED
from tau_env.wrappers.users.request_sentence import (
    CHECK,
    IDENTIFIER,
    LOOKS,
    AskedCall,
    NamedThing,
    SentenceReading,
)

__all__ = ["AskedCall", "Reading", "RequestReader", "reader_for"]


@dataclass(frozen=True)
class Reading:
    """What an agent's message asks the customer to do with its tools.

    Attributes:
        calls: The requests, in the order asked.
        unclear: For each request not understood, the thing it named ("" when none).
        sentences: The message's sentences (the calls' ``sentence`` index them).
    """

    calls: tuple[AskedCall, ...] = ()
    unclear: tuple[str, ...] = ()
    sentences: tuple[str, ...] = ()


class RequestReader:
    """Reads requests for one domain's tools (see the module docstring).

    Args:
        lexicon: The domain's `RequestLexicon` (None: read by the tools' names).
        tool_names: The user's tools.
    """

    def __init__(self, lexicon: RequestLexicon | None, tool_names: Sequence[str]) -> None:
        lexicon = _with_fallback(lexicon or RequestLexicon(), tool_names)
        available = set(tool_names)
        self.tools: dict[str, ToolWords] = {
            name: words for name, words in lexicon.tools.items() if name in available
        }
        self.shown_by = {o: t for o, t in lexicon.shown_by.items() if t in available}
        actions = {name: list(said) for name, said in SHARED.actions.items()}
        for name, said in lexicon.actions.items():
            actions.setdefault(name, []).extend(said)
        self.actions: PhraseTable[str] = PhraseTable(
            (phrase, name) for name, said in actions.items() for phrase in said
        )
        self.objects: PhraseTable[tuple[str, tuple[str, str] | None]] = PhraseTable(
            [(phrase, (name, None)) for name, said in lexicon.objects.items() for phrase in said]
            + [
                (phrase, (lexicon.value_objects[parameter], (parameter, value)))
                for parameter, named in lexicon.values.items()
                if parameter in lexicon.value_objects
                for value, said in named.items()
                for phrase in said
            ]
        )
        self.values: PhraseTable[tuple[str, str]] = PhraseTable(
            (phrase, (parameter, value))
            for parameter, named in lexicon.values.items()
            for value, said in named.items()
            for phrase in said
        )
        self._candidates: dict[tuple[str, str], list[str]] = {}
        self._read: dict[str, _SentenceRead] = {}  # sentences read alone (`_sentence`)
        self._read_unnamed: dict[str, _SentenceRead] = {}  # ... with nothing named before
        self.own_actions = frozenset(lexicon.actions)
        self.containers = lexicon.containers
        self.identifiers = IDENTIFIER in lexicon.objects
        self.object_names = frozenset(lexicon.objects) | frozenset(lexicon.value_objects.values())

    # -- candidates ----------------------------------------------------------------------------
    def candidates(self, action: str, obj: str) -> list[str]:
        """The tools answering `action` on `obj`, in the lexicon's order (a check: its state's)."""
        key = (CHECK if action in LOOKS else action, obj)
        found = self._candidates.get(key)
        if found is None:
            action = key[0]
            found = [t for t, w in self.tools.items() if obj in w.on and action in w.does]
            if action == CHECK and obj in self.shown_by and self.shown_by[obj] not in found:
                found.append(self.shown_by[obj])
            self._candidates[key] = found  # a few dozen pairs per domain
        return found

    def ordered(self, names: frozenset[str]) -> list[str]:
        """An action mention's meanings, the domain's own first ("open" the tool, not "check")."""
        return sorted(names, key=lambda name: (name not in self.own_actions, name))

    def alone(self, action: str) -> list[str]:
        """The tools an action asks for with nothing named."""
        return [t for t, words in self.tools.items() if action in words.alone]

    # -- reading -------------------------------------------------------------------------------
    def read(self, sentences: Sequence[str]) -> Reading:
        """The requests of a message cut into `sentences` (see the module docstring)."""
        calls: list[AskedCall] = []
        unclear: list[str] = []
        named: list[list[NamedThing]] = []  # objects named so far, clause by clause, for "it"
        unknown = 0  # polite requests with an unknown verb: counted only if nothing else is
        for index, sentence in enumerate(sentences):
            if _taken_back(sentences, index):
                continue
            reading = self._sentence(sentence, named)
            named.extend(list(group) for group in reading.named)
            asked, missed = reading.asked, reading.missed
            if _lists_options(sentences, index, reading):
                asked = ()  # "...which network mode it is set to: 5G, 4G or 3G?" asks once
            calls.extend(_placed(call, index) for call in asked)
            if not asked:
                unclear.extend(missed)
                unknown += not missed and reading.unknown_request
        if not calls and not unclear and unknown:
            unclear.append("")
        if calls:  # beside requests it understood, only a request about a thing it named
            unclear = [thing for thing in unclear if thing]
        return Reading(tuple(_deduplicated(calls, self.tools)), tuple(unclear), tuple(sentences))

    def _sentence(self, sentence: str, named: list[list[NamedThing]]) -> _SentenceRead:
        """One sentence read after the objects `named` before it (not changed here).

        Messages repeat sentences (a look-up's ``city:`` line, a stock phrase): a sentence
        whose reading did not look at the objects named before it (no action without an
        object of its own), or that was read with nothing named before it, is read once and
        remembered for that case; the others are read each time.
        """
        unnamed = not named
        known = self._read.get(sentence) or (self._read_unnamed.get(sentence) if unnamed else None)
        if known is not None:
            return known
        reading = SentenceReading(self, words_of(sentence), sentence.rstrip().endswith("?"))
        before = list(named)  # (`read` appends this sentence's groups, changes none)
        asked, missed = reading.read(before)
        found = _SentenceRead(
            tuple(asked),
            tuple(missed),
            tuple(tuple(group) for group in before[len(named) :]),
            reading.unknown_request,
            reading.question,
            reading.acts,
            reading.state_question,
        )
        if len(self._read) + len(self._read_unnamed) > _REMEMBERED:
            self._read.clear()
            self._read_unnamed.clear()
        if not reading.looked_back:
            self._read[sentence] = found
        elif unnamed:
            self._read_unnamed[sentence] = found
        return found


_REMEMBERED = 100_000
"""Sentences a reader remembers (then it starts afresh)."""


@dataclass(frozen=True)
class _SentenceRead:
    """What one sentence asks, and what its reading found (`RequestReader._sentence`).

    Attributes:
        asked: Its requests (sentence index 0).
        missed: The things of its requests not understood.
        named: The objects it names, clause by clause (for "it" in later sentences).
        unknown_request: A polite request whose verb is unknown.
        question: It is a question.
        acts: It has an action word.
        state_question: It asks about a state ("Is Wi-Fi on?").
    """

    asked: tuple[AskedCall, ...]
    missed: tuple[str, ...]
    named: tuple[tuple[NamedThing, ...], ...]
    unknown_request: bool
    question: bool
    acts: bool
    state_question: bool


def _taken_back(sentences: Sequence[str], index: int) -> bool:
    """A sentence broken off and taken back by the next: not read.

    "Please power off... actually, no need to power off."
    """
    if index + 1 >= len(sentences) or not sentences[index].rstrip().endswith(("...", "…", "—")):
        return False
    following = words_of(sentences[index + 1])
    return any(mention.start == 0 for mention in SHARED.corrections.find(following))


def _lists_options(sentences: Sequence[str], index: int, reading: _SentenceRead) -> bool:
    """A question of things without an action right after a colon: options, not a question.

    "...which network mode it is set to: 5G, 4G or 3G?" lists the options of the sentence
    before it; it asks nothing of its own about their state.
    """
    return (
        index > 0
        and sentences[index - 1].rstrip().endswith(":")
        and reading.question
        and not reading.acts
        and not reading.state_question  # "Quick check: is Wi-Fi on?" asks
    )


def _placed(call: AskedCall, sentence: int) -> AskedCall:
    return AskedCall(call.name, call.values, sentence, call.position, call.direction)


def _deduplicated(calls: list[AskedCall], tools: Mapping[str, ToolWords]) -> list[AskedCall]:
    """A tool asked twice once, except a switch asked on and then off (or off then on).

    Asked once with values and once with some of them ("the app info ... of the messaging
    app"), it is one request with the values; asked again without any value in another
    sentence, it is a request of its own, whose values its own sentences may name ("...
    without storage access. Please grant it that permission." after the SMS permission was
    asked; `tau_env.wrappers.users.matcher` drops it when its arguments come out the same).
    """
    kept: list[AskedCall] = []
    for call in calls:
        same = [
            i
            for i, c in enumerate(kept)
            if c.name == call.name
            and _alike(c, call)
            and (c.sentence == call.sentence or bool(c.values) == bool(call.values))
        ]
        toggle = call.name in tools and tools[call.name].toggle
        if not same or (
            toggle and call.direction and kept[same[-1]].direction not in (None, call.direction)
        ):
            kept.append(call)
        elif len(call.values) > len(kept[same[-1]].values):
            earlier = kept[same[-1]]
            kept[same[-1]] = AskedCall(
                call.name, call.values, earlier.sentence, earlier.position, earlier.direction
            )
    return kept


def _alike(one: AskedCall, other: AskedCall) -> bool:
    """The same values, or those of one among the other's."""
    small, large = sorted((dict(one.values), dict(other.values)), key=len)
    return all(large.get(key) == value for key, value in small.items())


def _with_fallback(lexicon: RequestLexicon, tool_names: Sequence[str]) -> RequestLexicon:
    """`lexicon` plus the words of the names of the tools it does not describe.

    ``toggle_airplane_mode``: the actions ``understanding.toml``'s ``[fallback.verbs]`` gives
    "toggle" (switch, turn on, turn off), on the object "airplane … mode" (its name's other
    words in order, other words between them allowed; of three words or more also without
    the last: "network mode" for ``set_network_mode_preference``; one word also as its
    synonyms).
    """
    missing = [name for name in tool_names if name not in lexicon.tools]
    if not missing:
        return lexicon
    actions = dict(lexicon.actions)
    objects = dict(lexicon.objects)
    tools = dict(lexicon.tools)
    for name in missing:
        verb, *nouns = name.split("_")
        if not nouns:
            continue
        said = SHARED.fallback_verbs.get(verb, (verb,))
        does = tuple(word for word in said if word in SHARED.actions)
        own = tuple(word for word in said if word not in SHARED.actions)
        if own:
            actions[f"verb:{verb}"] = own
            does += (f"verb:{verb}",)
        obj = f"noun:{'_'.join(nouns)}"
        synonyms = SHARED.fallback_nouns.get(nouns[0], ()) if len(nouns) == 1 else ()
        shorter = (" … ".join(nouns[:-1]),) if len(nouns) >= 3 else ()  # "network mode"
        objects[obj] = (" … ".join(nouns), *shorter, *synonyms)
        tools[name] = ToolWords(does=does, on=(obj,))
    return RequestLexicon(
        actions=actions,
        objects=objects,
        shown_by=lexicon.shown_by,
        tools=tools,
        values=lexicon.values,
        value_objects=lexicon.value_objects,
        parameters=lexicon.parameters,
        containers=lexicon.containers,
    )


@lru_cache(maxsize=256)
def reader_for(lexicon: RequestLexicon | None, tool_names: tuple[str, ...]) -> RequestReader:
    """The reader of `lexicon` (compared by identity) for these tools, built once."""
    return RequestReader(lexicon, tool_names)
