"""One sentence of an agent's message, read for requests (the steps of `requests`).

`SentenceReading` finds a sentence's actions and objects with a `RequestReader`'s phrase
tables and works out which tool each request names (steps 1 to 5 of
`tau_env.wrappers.users.requests`); `RequestReader.read` reads a message sentence by sentence
with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from tau_env.wrappers.users.phrases import Mention, PhraseTable, Words
from tau_env.wrappers.users.reading import SHARED

__all__ = ["IDENTIFIER", "LOOKS", "AskedCall", "NamedThing", "SentenceReading", "ToolWordsReader"]

IDENTIFIER = "identifier"
"""An object a lexicon may declare: any word with ``_`` (``deposit_check_3847``) names it."""

CHECK = "check"
_OPEN = "open"
_ASK = "ask"
LOOKS = frozenset({CHECK, _OPEN, _ASK})
"""Actions that look at something (a question word and going somewhere among them)."""
_STATE_ACTIONS = frozenset(
    {"switch", "switch_on", "switch_off", "connect", "disconnect", "set", "grant", "reset"}
)
"""Actions that, in a question about state, describe the state ("Is Wi-Fi turned on?")."""
_DIRECTION = {"switch_on": "on", "switch_off": "off"}
_TARGET = frozenset({"to", "into", "as"})
_ADDRESSEES = frozenset({"me", "us"})
_HAVE = frozenset({"have", "had"})
_WHAT = frozenset({"what", "how"})
_JOINING = frozenset({"and", "then"})
_WH_STATE = frozenset({"what", "which", "how"})
_SKIPPED_BEFORE_STATE = frozenset({"currently", "now", "still", "already", "all", "not", "set"})


class ToolWordsReader(Protocol):
    """What a sentence is read with: a domain's phrase tables and tools (`RequestReader`)."""

    actions: PhraseTable[str]
    objects: PhraseTable[tuple[str, tuple[str, str] | None]]
    identifiers: bool
    containers: frozenset[str]

    def candidates(self, action: str, obj: str) -> list[str]:
        """The tools answering `action` on `obj`."""
        ...

    def ordered(self, names: frozenset[str]) -> list[str]:
        """An action mention's meanings, the domain's own first."""
        ...

    def alone(self, action: str) -> list[str]:
        """The tools an action asks for with nothing named."""
        ...


@dataclass(frozen=True)
class AskedCall:
    """A user-tool request read from the agent's words.

    Attributes:
        name: The tool.
        values: Parameter values the request names (the lexicon's value words).
        sentence: The sentence (index) it was asked in.
        position: Where in the sentence (word index).
        direction: ``"on"`` / ``"off"`` for a switch asked one way, else None.
    """

    name: str
    values: Mapping[str, str] = field(default_factory=dict)
    sentence: int = 0
    position: int = 0
    direction: str | None = None


_Action = Mention[frozenset[str]]
"""An action phrase found: its meanings (one phrase may have several) and its words."""


@dataclass(frozen=True)
class NamedThing:
    """An object named in a sentence.

    Attributes:
        name: The lexicon's object.
        positions: Its words in the sentence.
        value: ``(parameter, value)`` when a parameter value named it ("SMS").
    """

    name: str
    positions: tuple[int, ...]
    value: tuple[str, str] | None = None

    @property
    def start(self) -> int:
        """Its first word."""
        return self.positions[0]


@dataclass
class _Taken:
    """Objects one action (or the question itself, key -1) takes, with their tools."""

    action: str
    objects: list[tuple[NamedThing, list[str]]] = field(default_factory=list)


class SentenceReading:
    """One sentence being read (the steps of `tau_env.wrappers.users.requests`).

    Args:
        reader: The domain's reader (its phrase tables and tools).
        words: The sentence's words.
        question: Whether the sentence is a question.
    """

    def __init__(self, reader: ToolWordsReader, words: Words, question: bool) -> None:
        self.reader = reader
        self.in_actions: set[int] = set()
        self.object_ends: set[int] = set()
        self.unknown_request = False
        self.acts = False  # an action word found (set by `read`)
        self.acted_on: set[int] = set()  # starts of the things acted on (set by `read`)
        self.looked_back = False  # the objects named before this sentence were looked at
        self.places: list[Mention[str]] | None = None  # place words, found when first needed
        self.words = words
        self.stems = words.stems
        self.question = question
        self.state_question = (
            question and bool(words.stems) and (words.stems[0] in SHARED.state_questions)
        )
        self.clause = _clauses(words)
        offered = SHARED.offers.find(words) or SHARED.asking_leave.find(words)
        self.asks_state = question and not offered  # not "Would you like me to refuel data?"
        self.negated = _marked(SHARED.negations.find(words), self.clause, len(words))
        self.subordinate = _marked(SHARED.subordinate.find(words), self.clause, len(words))

    def read(self, named: list[list[NamedThing]]) -> tuple[list[AskedCall], list[str]]:
        """The sentence's requests, and the things of the requests it did not understand."""
        reader = self.reader
        all_objects = self._objects()
        in_objects = {p for obj in all_objects for p in obj.positions}
        ends = {obj.positions[-1] for obj in all_objects}
        found_actions = [  # "payment request", "the roaming switch" name things, not actions
            a
            for a in self._actions()
            if not in_objects.issuperset(a.positions)
            and not (a.start - 1 in ends and self.words.surface[a.start] in SHARED.controls)
        ]
        self.in_actions = {p for action in found_actions for p in action.positions}
        self.object_ends = ends
        self.acts = bool(found_actions)
        actions = [a for a in found_actions if self._counts(a)]
        if any(a.label - LOOKS for a in actions):  # "open Settings > VPN and tap Disconnect"
            actions = [a for a in actions if a.label - {_OPEN}]
        objects = [o for o in all_objects if not self.negated[o.start]]
        taken: dict[int, _Taken] = {}
        used: set[int] = set()
        for obj in objects:
            key, action, tools = self._taker(obj, actions)
            if key is None:
                continue
            used.add(key)
            taken.setdefault(key, _Taken(action)).objects.append((obj, tools))
        self.acted_on = {  # things an action of this sentence does something to
            obj.start for t in taken.values() if t.action not in LOOKS for obj, _ in t.objects
        }
        missed: list[str] = []
        for position, lone in enumerate(actions):
            if position in used or self._leads_into(lone, actions):
                continue
            found = self._without_object(lone, objects, named)
            if found is not None:
                name, those, tools = found
                taken[1000 + position] = _Taken(name, [(obj, tools) for obj in those])
            elif (alone := _first_alone(reader, lone)) is not None:
                name, tool = alone
                taken[1000 + position] = _Taken(name, [(NamedThing("", (lone.start,)), [tool])])
            elif not lone.label <= SHARED.weak | LOOKS and self._asked_of_customer(lone):
                missed.append(self._thing_after(lone, objects))
        for clause in sorted({self.clause[o.start] for o in objects}):
            named.append([o for o in objects if self.clause[o.start] == clause])
        calls = [call for key in sorted(taken) for call in self._calls(taken[key])]
        calls.sort(key=lambda call: call.position)
        self.unknown_request = not actions and self._unknown_request()
        return calls, missed

    # -- step 1: actions that count --------------------------------------------------------------
    def _actions(self) -> list[_Action]:
        grouped: dict[tuple[int, ...], set[str]] = {}
        for mention in self.reader.actions.find(self.words):
            grouped.setdefault(mention.positions, set()).add(mention.label)
        found = [Mention(frozenset(names), positions) for positions, names in grouped.items()]
        return sorted(found, key=lambda a: a.start)

    def _counts(self, action: _Action) -> bool:
        start = action.start
        if action.label == {_ASK} and not self.question:
            return False  # "..., which would explain it" asks nothing
        if self.negated[start] or self.subordinate[start]:
            return False
        if start == 0 and self.state_question:
            return False  # "Do you have a VPN?": "do" asks, it is not "do a speed test"
        following = self.stems[action.end + 1] if action.end + 1 < len(self.stems) else ""
        if following in _ADDRESSEES and CHECK not in action.label:
            return False  # "let me know", "give me your details": the conversation's
        if action.label & _STATE_ACTIONS and (
            self.state_question or self._after_be(start) or self._asked_what_state(start)
        ):
            return False
        return not self._someone_else_acts(start)

    def _asked_what_state(self, start: int) -> bool:
        """A question of what a thing is set to, not a request to set it.

        "What is your network type set to?", "Which mode is your phone set to?": a wh-word,
        then "is" before the action in its clause.
        """
        if not self.question or not self.stems or self.stems[0] not in _WH_STATE:
            return False
        clause = self.clause[start]
        return any(self.stems[i] in SHARED.be and self.clause[i] == clause for i in range(1, start))

    def _after_be(self, start: int) -> bool:
        index = start - 1
        while index >= 0 and self.stems[index] in _SKIPPED_BEFORE_STATE:
            index -= 1
        return index >= 0 and self.stems[index] in SHARED.be

    def _someone_else_acts(self, start: int) -> bool:
        """Someone else acts: the agent ("I'll check"), a thing ("it looks like"), the past.

        A thing is the subject of a verb of its own ("mobile data looks fine"); the past is
        what the customer already did ("you've restarted").
        """
        index = start - 1
        between: list[str] = []
        while index >= 0 and self.stems[index] in SHARED.auxiliaries:
            between.append(self.stems[index])
            index -= 1
        if index < 0:
            return False
        subject = self.stems[index]
        if subject in SHARED.agent_subjects or subject in SHARED.describers:
            return True
        surface = self.words.surface[start]
        # "mobile data looks fine", "the status bar shows signal", "it can stop data" (a thing
        # with a verb of its own, not "set your APN settings back to default")
        verb = bool(between) or (surface.endswith("s") and not surface.endswith("ss"))
        if index in self.object_ends and set(between) <= SHARED.modals and verb:
            return True
        past = surface.endswith("ed")  # "you restarted"
        participle = past or surface in {"done", "taken", "put", "reset", "run", "set"}
        if subject != "you":
            return False
        return (past and not between) or (participle and bool(between) and between[-1] in _HAVE)

    # -- step 2: objects and what takes them ---------------------------------------------------
    def _objects(self) -> list[NamedThing]:
        found = [
            NamedThing(name, mention.positions, value)
            for mention in self.reader.objects.find(self.words)
            for name, value in [mention.label]
        ]
        # In a menu path ("Settings > Apps > Messaging > Permissions") the last step is meant.
        found = [
            o for o in found if self.stems[o.positions[-1] + 1 : o.positions[-1] + 2] != (">",)
        ]
        if self.reader.identifiers:
            found += [
                NamedThing(IDENTIFIER, (i,)) for i, word in enumerate(self.stems) if "_" in word
            ]
        return sorted(found, key=lambda o: o.start)

    def _taker(self, obj: NamedThing, actions: list[_Action]) -> tuple[int | None, str, list[str]]:
        """(which action takes `obj`, the action, its tools); key -1: the question does."""
        inside = self.subordinate[obj.start]  # "so your apps can use data": only looked at
        for position in range(len(actions) - 1, -1, -1):
            action = actions[position]
            if action.start >= obj.start:
                continue
            for name in self.reader.ordered(action.label):
                if inside and name != CHECK:
                    continue
                tools = self.reader.candidates(name, obj.name)
                if tools:
                    return position, name, tools
        if self.asks_state and not actions:  # "Is Wi-Fi on?" (not "Can you switch X on in Y?")
            tools = self.reader.candidates(CHECK, obj.name)
            if tools:
                return -1, CHECK, tools
        return None, "", []

    # -- step 3: actions without an object -----------------------------------------------------
    def _leads_into(self, action: _Action, actions: list[_Action]) -> bool:
        """`action` is right before another ("try restarting", "tap Connect")."""
        return any(other.start == action.end + 1 for other in actions)

    def _without_object(
        self, action: _Action, objects: list[NamedThing], named: list[list[NamedThing]]
    ) -> tuple[str, list[NamedThing], list[str]] | None:
        """What an action without an object acts on ("turn it off"), with its tools.

        The first thing of the latest clause that names one (a container last, unless this
        sentence did something to it: "switch your phone off, wait, and switch it back on"). A
        look ("let me know what happens") takes a thing of its own clause, or an earlier one only
        when "it" says so.
        """
        self.looked_back = True
        here = [o for o in objects if o.start < action.start]
        if action.label <= LOOKS:
            after = action.end + 1
            if after < len(self.stems) and self.subordinate[after]:
                return None  # "let me know once it's done", "see whether that helps"
            if not self._pronoun_after(action):
                here = [o for o in here if self.clause[o.start] == self.clause[action.start]]
                named = []  # without "it", only what this clause names ("Is X showing?")
        clauses = named + [
            [o for o in here if self.clause[o.start] == clause]
            for clause in sorted({self.clause[o.start] for o in here})
        ]
        ordered = [o for clause in clauses[::-1] for o in clause]
        containers = self.reader.containers
        handled = [o for o in ordered if o.name in containers and o in here]
        handled = [o for o in handled if o.start in self.acted_on]
        before = (
            handled
            + [o for o in ordered if o.name not in containers]
            + [o for o in ordered if o.name in containers and o not in handled]
        )
        for obj in before:
            for name in self.reader.ordered(action.label):
                tools = self.reader.candidates(name, obj.name)
                if tools:
                    clause = next(c for c in clauses if obj in c)
                    fellows = [  # "the messaging app is missing the SMS permission": both
                        o for o in clause if tools[0] in self.reader.candidates(name, o.name)
                    ]
                    those = [NamedThing(o.name, (action.start,), o.value) for o in fellows]
                    return name, those, tools
        return None

    def _asked_of_customer(self, action: _Action) -> bool:
        """The action is asked of the customer, not a remark ("roaming charges may apply").

        It starts its clause ("Please turn on Bluetooth"), follows another request ("and
        reset ...") or "you" does it ("Could you update ...").
        """
        index = action.start - 1
        joined = False  # "go to Settings and reset ...": one of several requests
        while index >= 0 and self.stems[index] in SHARED.auxiliaries:
            joined = joined or self.stems[index] in _JOINING
            index -= 1
        if joined or index < 0 or self.stems[index] in (",", ";", "you"):
            return True
        return self.clause[index] != self.clause[action.start]

    def _pronoun_after(self, action: _Action) -> bool:
        """A pronoun next ("check it"), or after "what"/"how" ("tell me what it shows")."""
        following = self.stems[action.end + 1 : action.end + 3]
        if following[:1] and following[0] in SHARED.pronouns:
            return True
        return len(following) == 2 and following[0] in _WHAT and following[1] in SHARED.pronouns

    def _thing_after(self, action: _Action, objects: list[NamedThing]) -> str:
        clause = self.clause[action.start]
        for obj in objects:
            if obj.start > action.end and self.clause[obj.start] == clause:
                return " ".join(self.words.surface[p] for p in obj.positions)
        return ""

    def _unknown_request(self) -> bool:
        """A polite request whose verb is not the customer's and not the conversation's."""
        for mention in SHARED.request_markers.find(self.words):
            index = mention.end + 1
            while index < len(self.stems) and self.stems[index] in SHARED.auxiliaries:
                index += 1
            if index >= len(self.stems) or self.negated[index]:
                continue
            verb = self.stems[index]
            if verb.isalpha() and verb not in SHARED.conversation_verbs:
                return True
        return False

    # -- step 4: tools ---------------------------------------------------------------------------
    def _located(self, obj: NamedThing) -> bool:
        """`obj` follows a place word ("on your phone", "in your settings")."""
        if self.places is None:
            self.places = SHARED.locations.find(self.words)
        return any(
            obj.start - 3 <= mention.end < obj.start
            and not self.in_actions.intersection(mention.positions)
            for mention in self.places
        )

    def _calls(self, taken: _Taken) -> list[AskedCall]:
        direction = _DIRECTION.get(taken.action)
        named = [obj for obj, _ in taken.objects]
        chosen = taken.objects
        if len(chosen) > 1:  # a place names no tool ("on your phone"), but may name a value
            chosen = [
                (o, tools)
                for o, tools in chosen
                if not self._located(o) and o.name not in self.reader.containers
            ] or chosen
        common = _common([tools for _, tools in chosen])
        if common:
            groups = [(common[0], [obj for obj, _ in chosen], named)]
        else:
            groups = [(tools[0], [obj], [obj]) for obj, tools in chosen]
        calls = []
        for tool, objs, valued in groups:
            position = min(o.start for o in objs)
            for values in self._values(valued):
                calls.append(AskedCall(tool, values, 0, position, direction))
        return calls

    def _values(self, objects: list[NamedThing]) -> list[dict[str, str]]:
        """The parameter values the objects name: one set, or one per value of a parameter."""
        by_parameter: dict[str, list[tuple[int, str]]] = {}
        for obj in objects:
            if obj.value is not None:
                parameter, value = obj.value
                by_parameter.setdefault(parameter, []).append((obj.start, value))
        values: list[dict[str, str]] = [{}]
        for parameter, said in by_parameter.items():
            distinct = list(dict.fromkeys(value for _, value in said))
            targets = [v for start, v in said if self._after_target(start)]
            if targets:
                distinct = targets[-1:]
            values = [{**v, parameter: value} for v in values for value in distinct]
        return values

    def _after_target(self, start: int) -> bool:
        return any(self.stems[i] in _TARGET for i in range(max(0, start - 2), start))


def _first_alone(reader: ToolWordsReader, action: _Action) -> tuple[str, str] | None:
    for name in reader.ordered(action.label):
        tools = reader.alone(name)
        if tools:
            return name, tools[0]
    return None


def _common(lists: list[list[str]]) -> list[str]:
    """The tools in every list, in the first list's order (several objects: one request)."""
    if len(lists) < 2:
        return []
    rest = [set(tools) for tools in lists[1:]]
    return [tool for tool in lists[0] if all(tool in tools for tools in rest)]


def _clauses(words: Words) -> list[int]:
    """The clause of each word: , ; and the clause-breaking words start a new one."""
    breaks = {mention.start for mention in SHARED.clause_breaks.find(words)}
    clause = 0
    found = []
    for index, word in enumerate(words.stems):
        if word in (",", ";") or index in breaks:
            clause += 1
        found.append(clause)
    return found


def _marked(mentions: list[Mention[str]], clause: list[int], length: int) -> list[bool]:
    """Words from each mention to the end of its clause."""
    marked = [False] * length
    for mention in mentions:
        for index in range(mention.start, length):
            if clause[index] != clause[mention.start]:
                break
            marked[index] = True
    return marked
