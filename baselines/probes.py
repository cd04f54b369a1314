"""Probe agents: simple policies that do not solve a task, used to audit how it is graded.

A task whose grade one of these reaches can be passed without doing the work: for evaluation
it inflates scores, for training it is a reward hack (a policy learns to refuse). Each probe
knows only what any agent knows: the conversation it sees, its tools' schemas and which of its
tools only read (`tau_env.tools.spec.FunctionSpec.kind`). None of them reads the task, its
gold plan or its grading criteria.

| name | what it does |
|---|---|
| ``refuse`` | apologises that it cannot help, then stops (the "do nothing" agent) |
| ``transfer`` | hands the customer to a human at once (the transfer tool and announcement) |
| ``agree`` | says the request is taken care of, then stops |
| ``read_all`` | asks for identifiers, calls every read tool once with what it heard, ends |
| ``random_s<N>`` | `RandomAgent` with seed N (random tool calls, messages and stops) |

Then the shortcut probes of `tau_env.baselines.shortcut_probes` (issue 53): recital of the
policy, dumps of every looked-up value, calls without arguments, transfers on every turn and
per ``reason``, a reader of any task label it is given. `probe_factories(domain)` builds them
all for one domain, in this order.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from tau_env.actions import Action, CallTool, SendMessage, Stop
from tau_env.baselines.random_agent import RandomAgent
from tau_env.baselines.shortcut_probes import SHORTCUT_PROBES, shortcut_factories
from tau_env.domain import Domain
from tau_env.env.aec import SideContext
from tau_env.env.conversation import SideView
from tau_env.messages import ToolMessage, UserMessage
from tau_env.participant import Participant
from tau_env.tasks.model import Task
from tau_env.transfer import TRANSFER_ANNOUNCEMENT, TRANSFER_TOOL

__all__ = [
    "AGREEMENT",
    "ID_QUESTION",
    "PROBE_NAMES",
    "RANDOM_SEEDS",
    "REFUSAL",
    "AgreeingAgent",
    "LookupAgent",
    "RefusingAgent",
    "TransferringAgent",
    "probe_factories",
]

REFUSAL = "I'm sorry, I can't help with that request."
"""What `RefusingAgent` says (the do-nothing agent of issue 45's table)."""

AGREEMENT = "Certainly! I have taken care of that for you, everything is done."
"""What `AgreeingAgent` says."""

ID_QUESTION = (
    "To look into this, could you give me your user id, your email, your name and zip code, "
    "your phone number, and the id of the order, reservation or account concerned?"
)
"""`LookupAgent`'s one question: the identifiers its read tools take, in every domain."""

LOOKUP_CLOSING = "Thank you for your patience. I have looked into it."
"""What `LookupAgent` says after its look-ups, before it stops."""

TRANSFER_SUMMARY = "The customer asked for help; handing the conversation over."
"""The summary `TransferringAgent` gives the transfer tool."""

RANDOM_SEEDS = (0, 1, 2)
"""Seeds of the random probes."""

PROBE_NAMES = (
    "refuse",
    "transfer",
    "agree",
    "read_all",
    *(f"random_s{s}" for s in RANDOM_SEEDS),
    *SHORTCUT_PROBES,
    "task_id",
)
"""Every probe, in report order: the simple ones, then the shortcut probes."""

MAX_LOOKUP_ERRORS = 5
"""`LookupAgent` stops calling tools after this many error results (an env ends an episode
at its ``max_errors``, 10 by default, which would make the probe fail for the wrong reason)."""


class _Scripted:
    """An agent that plays a fixed list of actions, then stops."""

    def __init__(self, task: Task | None = None) -> None:
        self._actions: Iterator[Action] = iter(self.actions())

    def actions(self) -> Iterator[Action]:
        """The actions, in order (a stop follows them when they run out)."""
        yield Stop()

    def act(self, view: SideView, context: SideContext) -> Action:
        """The next action of the list, else a stop."""
        return next(self._actions, _STOP)


_STOP = Stop()


class RefusingAgent(_Scripted):
    """Apologises that it cannot help, then stops: does nothing at all."""

    def actions(self) -> Iterator[Action]:  # noqa: D102 (the class says it)
        yield SendMessage(content=REFUSAL)


class AgreeingAgent(_Scripted):
    """Says the request is taken care of, then stops, without calling any tool."""

    def actions(self) -> Iterator[Action]:  # noqa: D102 (the class says it)
        yield SendMessage(content=AGREEMENT)


class TransferringAgent:
    """Transfers the customer to a human at once: the transfer tool, then the announcement.

    Args:
        task: Unused (the probe knows nothing of the task).
    """

    def __init__(self, task: Task | None = None) -> None:
        self._turn = 0

    def act(self, view: SideView, context: SideContext) -> Action:
        """The transfer call (when the agent has the tool), the announcement, then a stop."""
        self._turn += 1
        has_tool = TRANSFER_TOOL in context.tool_names
        if self._turn == 1 and has_tool:
            schema = next(
                t["function"] for t in context.tools if t["function"]["name"] == TRANSFER_TOOL
            )
            required = schema.get("parameters", {}).get("required", [])
            return CallTool(name=TRANSFER_TOOL, arguments=dict.fromkeys(required, TRANSFER_SUMMARY))
        if self._turn <= 2:
            return SendMessage(content=TRANSFER_ANNOUNCEMENT)
        return _STOP


class LookupAgent:
    """Asks for identifiers, calls every read tool once with what it heard, then ends.

    The look-ups a task's gold plan makes are often right there for an agent that reads
    everything; a task passed by this probe rewards looking things up, not acting on them.
    Required string arguments are filled from the customer's words: a name argument from
    "name is ..."; another one with the id-like word (one with a digit, or an e-mail address)
    said just after the argument's name (``user id`` for ``user_id``), else the first id-like
    word heard; a free-text argument (``query``, ``pattern``...) with the customer's first
    words. A tool whose required arguments it cannot fill is skipped.

    Args:
        task: Unused (the probe knows nothing of the task).
        read_tools: Names of the agent's read-only tools, in the order to call them.
    """

    def __init__(self, task: Task | None = None, *, read_tools: tuple[str, ...] = ()) -> None:
        self.read_tools = read_tools
        self._asked = False
        self._queue: list[str] | None = None
        self._closed = False

    @classmethod
    def factory(cls, domain: Domain) -> Callable[[Task], LookupAgent]:
        """A participant factory that knows the domain's read tools."""
        tools = tuple(spec.name for spec in domain.toolbox.tools("agent") if spec.kind == "read")
        return partial(cls, read_tools=tools)

    def act(self, view: SideView, context: SideContext) -> Action:
        """The question, then one call per read tool, then the closing, then a stop."""
        if not self._asked:
            self._asked = True
            return SendMessage(content=ID_QUESTION)
        if self._queue is None:
            self._queue = [name for name in self.read_tools if name in context.tool_names]
        errors = sum(1 for m in view.history if isinstance(m, ToolMessage) and m.error)
        heard = _customer_text(view)
        while self._queue and errors < MAX_LOOKUP_ERRORS:
            name = self._queue.pop(0)
            schema = next(t["function"] for t in context.tools if t["function"]["name"] == name)
            arguments = _fill(schema, heard)
            if arguments is not None:
                return CallTool(name=name, arguments=arguments)
        if not self._closed:
            self._closed = True
            return SendMessage(content=LOOKUP_CLOSING)
        return _STOP


_ID_WORD = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\b\w*\d[\w/-]*")
_NAME = re.compile(r"\bname\s+is\s+([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)")
_FREE_TEXT = ("query", "pattern", "text", "question", "search", "keyword", "summary")


def _customer_text(view: SideView) -> list[str]:
    return [m.content for m in view.history if isinstance(m, UserMessage) and m.content]


def _fill(schema: dict[str, Any], heard: list[str]) -> dict[str, Any] | None:
    """Arguments for a tool's required parameters from the customer's words (None: cannot)."""
    parameters = schema.get("parameters", {})
    properties = parameters.get("properties", {})
    arguments: dict[str, Any] = {}
    for name in parameters.get("required", []):
        kind = properties.get(name, {}).get("type", "string")
        if kind != "string":
            return None
        value = _value_for(name.lower(), heard)
        if value is None:
            return None
        arguments[name] = value
    return arguments


def _value_for(parameter: str, heard: list[str]) -> str | None:
    """What the customer said that a string parameter of this name takes (None: nothing)."""
    if any(word in parameter for word in _FREE_TEXT):
        return " ".join(re.findall(r"\w+", heard[0])[:8]) if heard else None
    if "name" in parameter and "user" not in parameter:
        said = next((m.group(1).split() for t in heard for m in _NAME.finditer(t)), None)
        if not said:
            return None
        if "first" in parameter:
            return said[0]
        if "last" in parameter:
            return said[-1]
        return " ".join(said)
    return _id_for(parameter, heard)


def _id_for(parameter: str, heard: list[str]) -> str | None:
    """The id-like word said nearest after the parameter's name, else the first one heard."""
    words = [w for w in parameter.split("_") if w and w != "id"]
    first: str | None = None
    for text in heard:
        lowered = text.lower()
        for match in _ID_WORD.finditer(text):
            found = match.group().rstrip(".")
            if first is None:
                first = found
            before = lowered[max(0, match.start() - 30) : match.start()]
            if words and all(word in before for word in words):
                return found
            if "email" in words and "@" in found:
                return found
    return first


def probe_factories(domain: Domain) -> dict[str, Callable[[Task], Participant]]:
    """Every probe of `PROBE_NAMES` as a participant factory for episodes of `domain`."""
    factories: dict[str, Callable[[Task], Participant]] = {
        "refuse": RefusingAgent,
        "transfer": TransferringAgent,
        "agree": AgreeingAgent,
        "read_all": LookupAgent.factory(domain),
    }
    for seed in RANDOM_SEEDS:
        factories[f"random_s{seed}"] = partial(RandomAgent, seed=seed)
    factories.update(shortcut_factories(domain))
    return factories
