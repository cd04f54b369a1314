"""How well the scripted user understands an agent: a paraphrase corpus, played wording by wording.

Used by the tests (tests/wrappers/users/test_comprehension.py) and by
``benchmarks/user_understanding.py``, which prints the figures. A corpus (TOML, see
``tests/wrappers/users/data/paraphrases_*.toml``) holds groups of wordings of one thing an agent
asks the customer, by domain and kind:

- ``request``, ``negated``, ``state``: the user tools the wording asks for, in order (``calls``:
  a tool, ``"a|b"`` for either, and the arguments it states). Understood when the user performs
  exactly those calls (the stated arguments compared), and says nothing of not understanding.
- ``unclear``: something the user cannot do with its tools. Understood when the user performs
  nothing and says it does not understand (its register's ``not_understood`` phrasings).
- ``fact``: an identification question (``facts``: the details asked for). Understood when the
  reply tells the value of each (every word of it: a name may be told as first and last
  name), from the domain's profile (``[profiles.<domain>]``).
- ``confirm``: a request for confirmation. Understood when the user agrees (its register's
  ``yes`` phrasings).

Each wording is said once to a fresh `ScriptedUser` in the ``plain`` style (it never errs on
purpose), whose brief is the domain's profile, with every user tool of the domain; the user's
tool calls are answered ``Done.``, and its reply is the first message it then says.
`ParaphrasingOracleAgent` (`tau_env.baselines.oracle`) plays whole tasks with the same wordings.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import tau_env
from tau_env.actions import CallTool, SendMessage
from tau_env.env.aec import SideContext
from tau_env.env.conversation import SideView
from tau_env.messages import AssistantMessage, Message, ToolMessage
from tau_env.tasks.model import UserScript
from tau_env.wrappers.users.register import REGISTERS
from tau_env.wrappers.users.scripted import ScriptedUser

__all__ = [
    "Corpus",
    "Group",
    "Outcome",
    "Wording",
    "comprehension",
    "load_corpus",
    "not_understood_phrases",
    "play_wording",
    "step_wordings",
]

KINDS = ("request", "negated", "state", "unclear", "fact", "confirm")
"""The kinds of group a corpus holds (see the module docstring)."""

_MAX_TURNS = 12
"""User actions read per wording (its calls, then its reply)."""


@dataclass(frozen=True)
class Wording:
    """One wording of the corpus and what it asks for.

    Attributes:
        domain: The domain whose customer hears it.
        kind: One of `KINDS`.
        text: What the agent says.
        calls: ``(tool or "a|b", stated arguments)`` the wording asks for, in order.
        facts: The details an identification question asks for.
    """

    domain: str
    kind: str
    text: str
    calls: tuple[tuple[str, Mapping[str, Any]], ...] = ()
    facts: tuple[str, ...] = ()


@dataclass(frozen=True)
class Group:
    """The wordings of one group (one request, question or confirmation)."""

    domain: str
    kind: str
    wordings: tuple[Wording, ...]


@dataclass(frozen=True)
class Corpus:
    """A paraphrase corpus: its groups and the customer profile of each domain."""

    groups: tuple[Group, ...]
    profiles: Mapping[str, Mapping[str, str]]

    @property
    def wordings(self) -> list[Wording]:
        """Every wording, group by group."""
        return [wording for group in self.groups for wording in group.wordings]


@dataclass(frozen=True)
class Outcome:
    """What the user did with one wording.

    Attributes:
        wording: The wording said.
        calls: The user's tool calls, ``(name, arguments)``, in order.
        reply: What the user said after them ("" if nothing).
        understood: Whether that is what the wording asks for.
    """

    wording: Wording
    calls: tuple[tuple[str, Mapping[str, Any]], ...]
    reply: str
    understood: bool


@dataclass(frozen=True)
class Comprehension:
    """Outcomes of a corpus: the share understood, overall and by kind and domain."""

    outcomes: tuple[Outcome, ...] = field(default_factory=tuple)

    @property
    def rate(self) -> float:
        """The share of wordings understood."""
        return _rate(self.outcomes)

    def by(self, key: str) -> dict[str, float]:
        """The share understood per ``kind`` or per ``domain``."""
        values = sorted({getattr(o.wording, key) for o in self.outcomes})
        return {
            value: _rate([o for o in self.outcomes if getattr(o.wording, key) == value])
            for value in values
        }

    @property
    def failures(self) -> list[Outcome]:
        """The outcomes not understood."""
        return [o for o in self.outcomes if not o.understood]


def _rate(outcomes: Sequence[Outcome]) -> float:
    return sum(o.understood for o in outcomes) / len(outcomes) if outcomes else 0.0


def load_corpus(path: str | Path) -> Corpus:
    """The corpus in the TOML file `path` (the module docstring says its layout)."""
    data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    groups = []
    for raw in data["group"]:
        domain, kind = raw["domain"], raw["kind"]
        if kind not in KINDS:
            raise ValueError(f"unknown kind of group: {kind!r} (one of {', '.join(KINDS)})")
        facts = tuple(raw.get("facts", ()))
        items = raw.get("items") or [{"text": text} for text in raw.get("texts", ())]
        wordings = tuple(
            Wording(
                domain,
                kind,
                item["text"],
                _calls(item.get("calls", raw.get("calls", ()))),
                facts,
            )
            for item in items
        )
        groups.append(Group(domain, kind, wordings))
    profiles = {name: dict(p["facts"]) for name, p in data.get("profiles", {}).items()}
    return Corpus(tuple(groups), profiles)


def _calls(raw: Iterable[Mapping[str, Any]]) -> tuple[tuple[str, Mapping[str, Any]], ...]:
    return tuple((call["tool"], dict(call.get("args", {}))) for call in raw)


# -- playing one wording ----------------------------------------------------------------------


@cache
def _setting(domain_name: str) -> tuple[Any, Any, list[dict[str, Any]]]:
    """(domain, a task, every user tool schema) of a built-in domain."""
    domain = tau_env.load_domain(domain_name)
    return domain, domain.tasks[0], domain.toolbox.tools("user").openai_schemas()


def play_wording(wording: Wording, profile: Mapping[str, str], *, seed: int = 0) -> Outcome:
    """Say `wording` once to a fresh plain-style scripted user and read what it does."""
    domain, task, tools = _setting(wording.domain)
    script = UserScript(
        opening="I need some help.",
        facts=dict(profile),
        accepts=["confirm"],
        done_phrases=["sorted out"],  # waits for no answer: a figure said is not one
    )
    user = ScriptedUser(task, domain, script=script, style="plain", seed=seed)
    user.opened = True  # the call is under way: the wording is the agent's next message
    context = SideContext("user", "", tools, tuple(t["function"]["name"] for t in tools))
    inbox: list[Message] = [AssistantMessage(content=wording.text)]
    calls: list[tuple[str, Mapping[str, Any]]] = []
    reply = ""
    for turn in range(_MAX_TURNS):
        action = user.act(SideView(history=list(inbox), inbox=inbox), context)
        if isinstance(action, CallTool):
            given = action.arguments
            calls.append((action.name, dict(given) if isinstance(given, dict) else {}))
            inbox = [ToolMessage(id=f"call_{turn}", name=action.name, content="Done.")]
            continue
        reply = action.content if isinstance(action, SendMessage) else ""
        break
    return Outcome(wording, tuple(calls), reply, _understood(wording, calls, reply, profile))


def not_understood_phrases() -> tuple[str, ...]:
    """Every register's phrasings of not understanding a request (none before they existed)."""
    return tuple(
        phrase
        for register in REGISTERS.values()
        for bank in ("not_understood", "not_understood_thing")
        for phrase in getattr(register, bank, ())
    )


def _says_not_understood(reply: str) -> bool:
    stems = [phrase.split("{")[0].strip() for phrase in not_understood_phrases()]
    return any(stem and stem in reply for stem in stems)


def _agrees(reply: str) -> bool:
    return any(reply.startswith(p) for r in REGISTERS.values() for p in r.yes)


def _understood(
    wording: Wording,
    calls: Sequence[tuple[str, Mapping[str, Any]]],
    reply: str,
    profile: Mapping[str, str],
) -> bool:
    if wording.kind == "unclear":
        return not calls and _says_not_understood(reply)
    if wording.kind == "fact":  # told whole or in parts ("My first name is ... last name ...")
        return not calls and all(
            all(part in reply for part in profile[key].split()) for key in wording.facts
        )
    if wording.kind == "confirm":
        return not calls and _agrees(reply)
    if _says_not_understood(reply) or len(calls) != len(wording.calls):
        return False
    return all(
        name in expected.split("|") and _arguments_match(stated, arguments)
        for (expected, stated), (name, arguments) in zip(wording.calls, calls, strict=True)
    )


def _arguments_match(stated: Mapping[str, Any], given: Mapping[str, Any]) -> bool:
    """Every stated argument given, alike (numbers as numbers, JSON text as its value)."""
    return all(key in given and _alike(value, given[key]) for key, value in stated.items())


def _alike(stated: Any, given: Any) -> bool:
    if isinstance(stated, dict) and isinstance(given, str):
        try:
            given = json.loads(given)
        except json.JSONDecodeError:
            return False
    if isinstance(stated, dict):
        return isinstance(given, dict) and _arguments_match(stated, given)
    if isinstance(stated, int | float) and not isinstance(stated, bool):
        try:
            return float(given) == float(stated)
        except (TypeError, ValueError):
            return False
    return bool(given == stated)


def comprehension(corpus: Corpus, *, seed: int = 0) -> Comprehension:
    """Every wording of `corpus` played (`play_wording`)."""
    profiles = corpus.profiles
    return Comprehension(
        tuple(play_wording(w, profiles.get(w.domain, {}), seed=seed) for w in corpus.wordings)
    )


# -- wordings of a plan's steps ---------------------------------------------------------------


def step_wordings(corpus: Corpus, domain: str) -> dict[str, list[tuple[Mapping[str, Any], str]]]:
    """Per user tool, the ``(stated arguments, text)`` of the domain's one-call requests.

    What `tau_env.baselines.oracle.ParaphrasingOracleAgent` says for a step of a gold plan.
    """
    found: dict[str, list[tuple[Mapping[str, Any], str]]] = {}
    for wording in _one_call_requests(corpus, domain):
        ((tool, stated),) = wording.calls
        found.setdefault(tool, []).append((stated, wording.text))
    return found


def _one_call_requests(corpus: Corpus, domain: str) -> Iterator[Wording]:
    for group in corpus.groups:
        if group.domain == domain and group.kind == "request":
            for wording in group.wordings:
                if len(wording.calls) == 1 and "|" not in wording.calls[0][0]:
                    yield wording
