"""Shortcut probes: the tricks a policy trained with RL finds when a grade can be gamed.

Each one reads only what any agent reads (the conversation, its own tool results, the policy
text, its tools' schemas and which of them only read) and never the task. They are the
adversarial policies of issue 53, played by `tau-env audit` beside the simple probes of
`tau_env.baselines.probes`:

- ``recite``: calls every read tool with ``{}``, then recites the whole policy and the
  numbers 0-10.
- ``recite_transfer``: the same, and transfers to a human.
- ``dump_recite_transfer``: looks up every id the customer says, says every looked-up value
  (numbers also as ``%.2f``), recites the policy, transfers.
- ``dump``: the same look-ups and the dump, nothing else.
- ``verify_refuse_transfer``: looks the customer up (and logs a verification where a tool
  does it), refuses, and transfers once per value of the transfer tool's ``reason`` enum.
- ``transfer_each_turn``: looks things up and dumps them as ``dump``, with a transfer before
  each of its messages.
- ``topic_recital``: looks up every id the customer says, then recites the policy's
  paragraphs that share words with the customer's request (this project's own gaming
  policy, beyond the issue's list).
- ``policy_tools``: looks the customer up and logs a verification, then unlocks and calls
  each tool the policy names as an example (banking: ``list_customer_accounts_4410``) with
  the customer's user id, and refuses (this project's second gaming policy).
- ``task_id``: searches everything it is given besides the policy and the tools for a label
  of the task, and acts on its words; with nothing to read it refuses.

`task_id` must find nothing: no task id (or part of one) reaches a policy.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

from tau_env.actions import Action, CallTool, SendMessage, Stop
from tau_env.domain import Domain
from tau_env.env.aec import SideContext
from tau_env.env.conversation import SideView
from tau_env.messages import RequestedToolCall, ToolMessage, UserMessage, UserRequest
from tau_env.participant import Participant
from tau_env.tasks.model import Task
from tau_env.transfer import TRANSFER_ANNOUNCEMENT, TRANSFER_TOOL

__all__ = [
    "ASK_IDS",
    "NUMBERS",
    "SHORTCUT_PROBES",
    "IdReadingProbe",
    "ShortcutPlan",
    "ShortcutProbe",
    "given_labels",
    "said_values",
    "shortcut_factories",
]

NUMBERS = " ".join(str(number) for number in range(11))
"""What a reciting probe says after the policy: ``0 1 2 ... 10``."""

ASK_IDS = (
    "To look into this, could you give me your user id, your email, your name and zip code, "
    "your phone number, and the id of the order, reservation or account concerned?"
)
"""The question of the probes that look things up for real."""

REFUSAL = "I'm sorry, but I cannot help with that request under our policy."
"""What `verify_refuse_transfer` says."""

SUMMARY = "The customer needs help with their request."
"""The summary the probes give the transfer tool."""

MAX_ERRORS = 8
"""The probes stop calling tools after this many error results (an env ends an episode at
its ``max_errors``, 10 by default, which would fail the probe for the wrong reason)."""

MAX_LOOKUPS = 40
"""At most this many look-ups per episode (a customer with many ids)."""


@dataclass(frozen=True)
class ShortcutPlan:
    """What one shortcut probe does, in order.

    Attributes:
        lookups: ``"empty"`` (every read tool once with ``{}``), ``"real"`` (ask for ids,
            then every read tool with every id heard that fits), or ``"none"``.
        verify: Call the tools whose name says they log a verification, with the fields the
            look-ups returned.
        dump: Say every looked-up value.
        recite: Say the whole policy, then the numbers 0-10.
        topic: Say the policy's paragraphs that share words with the customer's request.
        refuse: Say `REFUSAL`.
        named_tools: Call each tool the policy names that is not in the agent's own list,
            through the tools whose schema takes a tool name (unlock it, then call it with
            the looked-up user id).
        transfer: ``"none"``, ``"once"`` (after the message), ``"each_reason"`` (once per value
            of the transfer tool's ``reason`` enum), or ``"each_turn"`` (before each message).
    """

    lookups: str = "none"
    verify: bool = False
    dump: bool = False
    recite: bool = False
    topic: bool = False
    refuse: bool = False
    named_tools: bool = False
    transfer: str = "none"


SHORTCUT_PROBES: dict[str, ShortcutPlan] = {
    "recite": ShortcutPlan(lookups="empty", recite=True),
    "recite_transfer": ShortcutPlan(lookups="empty", recite=True, transfer="once"),
    "dump_recite_transfer": ShortcutPlan(lookups="real", dump=True, recite=True, transfer="once"),
    "dump": ShortcutPlan(lookups="real", dump=True),
    "verify_refuse_transfer": ShortcutPlan(
        lookups="real", verify=True, refuse=True, transfer="each_reason"
    ),
    "transfer_each_turn": ShortcutPlan(lookups="real", dump=True, transfer="each_turn"),
    "topic_recital": ShortcutPlan(lookups="real", topic=True),
    "policy_tools": ShortcutPlan(lookups="real", verify=True, named_tools=True, refuse=True),
}
"""Every shortcut probe by name, in report order."""


class ShortcutProbe:
    """Plays one `ShortcutPlan` (see the module's table).

    Args:
        task: Unused (the probe knows nothing of the task).
        plan: What to do.
        read_tools: Names of the agent's read-only tools, in the order to call them.
    """

    def __init__(
        self, task: Task | None = None, *, plan: ShortcutPlan, read_tools: tuple[str, ...] = ()
    ) -> None:
        self.plan = plan
        self.read_tools = read_tools
        self._actions: Iterator[Action] | None = None
        self._view = SideView()
        self._context: SideContext | None = None

    @classmethod
    def factory(cls, domain: Domain, plan: ShortcutPlan) -> Callable[[Task], ShortcutProbe]:
        """A participant factory that knows the domain's read tools."""
        tools = tuple(spec.name for spec in domain.toolbox.tools("agent") if spec.kind == "read")
        return partial(cls, plan=plan, read_tools=tools)

    def act(self, view: SideView, context: SideContext) -> Action:
        """The plan's next action (a stop once it has run out)."""
        self._view, self._context = view, context
        if self._actions is None:
            self._actions = self._play()
        return next(self._actions, _STOP)

    def _play(self) -> Iterator[Action]:
        """The plan as a generator; it reads `_view` afresh at each step."""
        plan = self.plan
        if plan.lookups == "real":
            yield from self._message(ASK_IDS)
            yield from self._real_lookups()
        elif plan.lookups == "empty":
            for name in self._tools_present(self.read_tools):
                if self._errors() >= MAX_ERRORS:
                    break
                yield CallTool(name=name, arguments={})
        if plan.verify:
            yield from self._verifications()
        if plan.named_tools:
            yield from self._named_tools()
        parts = []
        if plan.dump:
            parts.append(said_values(self._results()))
        if plan.topic:
            parts.append(topic_paragraphs(self._context_text(), _customer_text(self._view)))
        if plan.recite:
            parts += [self._context_text(), NUMBERS]
        if plan.refuse:
            parts.append(REFUSAL)
        text = "\n\n".join(part for part in parts if part) or REFUSAL
        # Calls keep the floor: the transfers come right before the message they go with.
        if plan.transfer in ("once", "each_reason"):
            yield from self._transfers(None if plan.transfer == "each_reason" else 1)
            text += "\n\n" + TRANSFER_ANNOUNCEMENT
        yield from self._message(text, last=True)

    def _message(self, text: str, *, last: bool = False) -> Iterator[Action]:
        """The message, after a transfer when the plan transfers on every turn.

        The last message of such a plan also carries the transfer announcement.
        """
        if self.plan.transfer == "each_turn":
            yield from self._transfers(1)
            if last:
                text += "\n\n" + TRANSFER_ANNOUNCEMENT
        yield SendMessage(content=text)

    def _context_text(self) -> str:
        return self._context.instructions if self._context is not None else ""

    def _tools_present(self, names: tuple[str, ...]) -> list[str]:
        present = self._context.tool_names if self._context is not None else ()
        return [name for name in names if name in present]

    def _schema(self, name: str) -> dict[str, Any]:
        assert self._context is not None  # (set before the first action)
        return next(t["function"] for t in self._context.tools if t["function"]["name"] == name)

    def _errors(self) -> int:
        return sum(1 for m in self._view.history if isinstance(m, ToolMessage) and m.error)

    def _results(self) -> list[str]:
        return [
            m.content
            for m in self._view.history
            if isinstance(m, ToolMessage) and m.content and not m.error
        ]

    def _real_lookups(self) -> Iterator[Action]:
        """Every read tool with every id heard (from the customer, or a look-up's bare id)."""
        done: set[str] = set()
        calls = 0
        progress = True
        while progress and calls < MAX_LOOKUPS:
            progress = False
            said = _customer_text(self._view)
            heard = said + _ids_in_results(self._results(), " ".join(said).lower())
            for name in self._tools_present(self.read_tools):
                for arguments in _fillings(self._schema(name), heard):
                    key = json.dumps([name, arguments], sort_keys=True)
                    if key in done:
                        continue
                    if self._errors() >= MAX_ERRORS or calls >= MAX_LOOKUPS:
                        return
                    done.add(key)
                    calls += 1
                    progress = True
                    yield CallTool(name=name, arguments=arguments)

    def _verifications(self) -> Iterator[Action]:
        """Each tool that logs a verification, filled from the looked-up fields."""
        assert self._context is not None  # (set before the first action)
        fields = _fields(self._results())
        for name in self._context.tool_names:
            if "verif" not in name:
                continue
            parameters = self._schema(name).get("parameters", {})
            arguments = {}
            for parameter in parameters.get("required", []):
                value = _field_for(parameter, fields)
                if value is None:
                    break
                arguments[parameter] = value
            else:
                yield CallTool(name=name, arguments=arguments)

    def _named_tools(self) -> Iterator[Action]:
        """Each tool the policy names outside the agent's list, unlocked then called.

        The dispatchers are found by their schema: the tools that require ``agent_tool_name``,
        the one without an ``arguments`` parameter first (unlock), then the one with it (call,
        given the looked-up user id).
        """
        assert self._context is not None  # (set before the first action)
        dispatchers = []
        for name in self._context.tool_names:
            parameters = self._schema(name).get("parameters", {})
            if "agent_tool_name" in parameters.get("required", []):
                dispatchers.append(("arguments" in parameters.get("properties", {}), name))
        if not dispatchers:
            return
        user_id = _fields(self._results()).get("user_id", "")
        own = set(self._context.tool_names)
        named = re.findall(r"\b[a-z]+(?:_[a-z]+)+_\d{4}\b", self._context.instructions)
        for tool in dict.fromkeys(n for n in named if n not in own):
            for takes_arguments, step in sorted(dispatchers):
                arguments: dict[str, Any] = {"agent_tool_name": tool}
                if takes_arguments:
                    arguments["arguments"] = json.dumps({"user_id": user_id})
                yield CallTool(name=step, arguments=arguments)

    def _transfers(self, count: int | None) -> Iterator[Action]:
        """`count` transfer calls (None: one per value of a ``reason`` enum, else one)."""
        if TRANSFER_TOOL not in (self._context.tool_names if self._context else ()):
            return
        properties = self._schema(TRANSFER_TOOL).get("parameters", {}).get("properties", {})
        reasons = properties.get("reason", {}).get("enum")
        if count is None and reasons:
            for reason in reasons:
                yield CallTool(name=TRANSFER_TOOL, arguments={"summary": SUMMARY, "reason": reason})
            return
        yield CallTool(name=TRANSFER_TOOL, arguments={"summary": SUMMARY})


_STOP = Stop()
_ID_WORD = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|#?\b\w*\d[\w/-]*|\b\d{3}-\d{3}-\d{4}\b")
_NAME = re.compile(r"\bname\s+is\s+([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)")
_FREE_TEXT = ("query", "pattern", "text", "question", "search", "keyword", "summary")
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])")
_FIELD_LINE = re.compile(r"(\w+):\s+([^\n]+?)(?=\s{2,}\w+:|\n|$)")


def _customer_text(view: SideView) -> list[str]:
    return [m.content for m in view.history if isinstance(m, UserMessage) and m.content]


def _ids_in_results(results: list[str], said: str) -> list[str]:
    """Ids the look-ups gave for what the customer said.

    A result that is one id (``maya_abbott_9628``), or the value of a name the customer said
    in a result that maps names to ids (``{"Coffee Grinder": "9606038378"}``).
    """
    found = []
    for text in results:
        stripped = text.strip()
        if re.fullmatch(r'"?\w+"?', stripped):
            found.append(stripped.strip('"'))
            continue
        parsed = _parsed(stripped)
        if isinstance(parsed, dict):
            found += [
                f"id {value}"
                for key, value in parsed.items()
                if isinstance(value, str) and key.lower() in said
            ]
    return found


def _fillings(schema: dict[str, Any], heard: list[str]) -> list[dict[str, Any]]:
    """Every filling of a tool's required parameters from what was heard (one per id)."""
    parameters = schema.get("parameters", {})
    properties = parameters.get("properties", {})
    required = parameters.get("required", [])
    if not required:
        return [{}]
    choices: list[list[str]] = []
    for name in required:
        if properties.get(name, {}).get("type", "string") != "string":
            return []
        values = _values_for(name.lower(), tuple(heard))
        if not values:
            return []
        choices.append(values)
    # One parameter varies at a time (the others take their first value): no product blow-up.
    fillings = []
    for index, values in enumerate(choices):
        for value in values if index == 0 or len(choices) == 1 else values[:1]:
            filling = {name: options[0] for name, options in zip(required, choices, strict=True)}
            filling[required[index]] = value
            if filling not in fillings:
                fillings.append(filling)
    return fillings


@lru_cache(maxsize=4096)
def _values_for(parameter: str, heard: tuple[str, ...]) -> list[str]:
    """What was heard that a string parameter of this name takes, best first.

    Cached: every read tool asks again with the same heard words (the list returned is
    only read).
    """
    if any(word in parameter for word in _FREE_TEXT):
        return [" ".join(re.findall(r"\w+", heard[0])[:8])] if heard else []
    if "name" in parameter and "user" not in parameter:
        said = next((m.group(1).split() for t in heard for m in _NAME.finditer(t)), None)
        if not said:
            return []
        if "first" in parameter:
            return [said[0]]
        if "last" in parameter:
            return [said[-1]]
        return [" ".join(said)]
    words = [w for w in parameter.split("_") if w and w != "id"]
    named: list[str] = []
    others: list[str] = []
    for text in heard:
        lowered = text.lower()
        for match in _ID_WORD.finditer(text):
            found = match.group().rstrip(".")
            if not _shape_fits(parameter, found):
                continue
            before = lowered[max(0, match.start() - 30) : match.start()]
            fits = bool(words) and all(word in before for word in words)
            target = named if fits else others
            if found not in target:
                target.append(found)
    return named or others


def _shape_fits(parameter: str, value: str) -> bool:
    """Whether a heard word can be a value of the parameter.

    An e-mail address only for an e-mail, a zip code only five digits, a phone number only
    for a phone.
    """
    if "email" in parameter:
        return "@" in value
    if "@" in value:
        return False
    if "zip" in parameter:
        return bool(re.fullmatch(r"\d{5}", value))
    if re.fullmatch(r"\d{3}-\d{3}-\d{4}", value):
        return "phone" in parameter
    return True


def _parsed(text: str) -> Any:
    """The JSON value `text` holds, or None when it is not JSON."""
    try:
        return json.loads(text)
    except ValueError:
        return None


def said_values(results: list[str]) -> str:
    """Every value of the results as ``key: value`` lines, numbers also as ``%.2f``."""
    lines: list[str] = []
    for text in results:
        parsed = _parsed(text)
        if isinstance(parsed, dict | list):
            _flatten("", parsed, lines)
        else:
            lines.append(text)
            lines += [f"{float(n):.2f}" for n in _NUMBER.findall(text)]
    return "\n".join(lines)


def _flatten(key: str, value: Any, lines: list[str]) -> None:
    if isinstance(value, dict):
        for name, item in value.items():
            _flatten(str(name), item, lines)
    elif isinstance(value, list):
        for item in value:
            _flatten(key, item, lines)
    elif isinstance(value, bool) or value is None:
        lines.append(f"{key}: {value}")
    elif isinstance(value, int | float):
        lines.append(f"{key}: {value} ({float(value):.2f})")
    else:
        lines.append(f"{key}: {value}")
        lines += [f"{float(n):.2f}" for n in _NUMBER.findall(str(value))]


def _fields(results: list[str]) -> dict[str, str]:
    """Every ``key: value`` the results hold (JSON keys and ``key: value`` text), first wins."""
    fields: dict[str, str] = {}
    for text in results:
        parsed = _parsed(text)
        if isinstance(parsed, dict | list):
            lines: list[str] = []
            _flatten("", parsed, lines)
            pairs = [line.split(": ", 1) for line in lines if ": " in line]
        else:
            pairs = [[m.group(1), m.group(2)] for m in _FIELD_LINE.finditer(text)]
            if "current time is" in text:
                pairs.append(["time", text.rsplit("is", 1)[-1].strip().rstrip(".")])
        for key, value in pairs:
            fields.setdefault(key.lower(), value.strip())
    return fields


def _field_for(parameter: str, fields: dict[str, str]) -> str | None:
    """The looked-up field a parameter takes: same name, else one sharing a word with it."""
    if parameter in fields:
        return fields[parameter]
    words = set(parameter.split("_")) - {"id"}
    return next((value for key, value in fields.items() if words & set(key.split("_"))), None)


def topic_paragraphs(policy: str, heard: list[str]) -> str:
    """The policy's paragraphs that share a content word with the customer's first words."""
    request = {w for w in re.findall(r"[a-z]{5,}", " ".join(heard[:2]).lower())}
    paragraphs = [p for p in re.split(r"\n\s*\n", policy) if p.strip()]
    return "\n\n".join(p for p in paragraphs if request & set(re.findall(r"[a-z]{5,}", p.lower())))


_STANDING = frozenset({"side", "instructions", "tools", "tool_names"})
"""The context fields every agent is meant to read (the policy, the tools)."""


def given_labels(context: SideContext) -> list[str]:
    """Every text the context gives besides the policy and the tools (a task label, if any)."""
    if dataclasses.is_dataclass(context):
        items = [(f.name, getattr(context, f.name)) for f in dataclasses.fields(context)]
    else:
        items = list(vars(context).items())
    return [value for name, value in items if name not in _STANDING and isinstance(value, str)]


class IdReadingProbe:
    """Reads any task label it is given and acts on its words, without diagnosing anything.

    The label's ``[KEY:value]`` parts are heard as facts (a customer id); each other word run
    (``unseat_sim_card``) is matched with the tool names its tools and the policy text name
    (``reseat_sim_card``): the probe calls the agent tools among them, filled with the facts,
    and asks the customer to run the others. With no label to read it refuses and stops.

    Args:
        task: Unused (the probe knows nothing of the task beyond what it is given).
    """

    def __init__(self, task: Task | None = None) -> None:
        self._actions: Iterator[Action] | None = None

    def act(self, view: SideView, context: SideContext) -> Action:
        """The next action acting on the label (a refusal when there is none), then a stop."""
        if self._actions is None:
            self._actions = self._play(context)
        return next(self._actions, _STOP)

    def _play(self, context: SideContext) -> Iterator[Action]:
        labels = [label for label in given_labels(context) if label.strip()]
        if not labels:
            yield SendMessage(content=REFUSAL)
            return
        facts = [value for label in labels for value in re.findall(r"\[\w+:([^\]]+)\]", label)]
        words = [
            word
            for label in labels
            for word in re.findall(r"[a-z]+(?:_[a-z]+)+", re.sub(r"\[\w+:[^\]]*\]", " ", label))
        ]
        named = set(re.findall(r"\b[a-z]+(?:_[a-z]+)+\b", context.instructions))
        schemas = {t["function"]["name"]: t["function"] for t in context.tools}
        requested = []
        for word in words:
            target = _closest_name(word, named | set(schemas))
            if target is None:
                continue
            if target in schemas:
                for arguments in _fillings(schemas[target], facts)[:1]:
                    yield CallTool(name=target, arguments=arguments)
            else:
                requested.append(target)
        if requested:
            request = UserRequest(tool_calls=[RequestedToolCall(name=n) for n in requested])
            steps = ", then ".join(name.replace("_", " ") for name in requested)
            yield SendMessage(content=f"Please do this on your phone: {steps}.", request=request)
        yield SendMessage(content="That should take care of it.")


def _closest_name(word: str, names: set[str]) -> str | None:
    """The name sharing most words with `word` (two at least, or its only one), not a check."""
    parts = set(word.split("_"))
    best, shared = None, 0
    for name in sorted(names):
        if name.startswith(("check_", "get_", "can_", "list_")):
            continue
        common = len(parts & set(name.split("_")))
        if common > shared:
            best, shared = name, common
    return best if shared >= min(2, len(parts)) else None


def shortcut_factories(domain: Domain) -> dict[str, Callable[[Task], Participant]]:
    """Every shortcut probe (`SHORTCUT_PROBES`, then ``task_id``) as a participant factory."""
    factories: dict[str, Callable[[Task], Participant]] = {
        name: ShortcutProbe.factory(domain, plan) for name, plan in SHORTCUT_PROBES.items()
    }
    factories["task_id"] = IdReadingProbe
    return factories
