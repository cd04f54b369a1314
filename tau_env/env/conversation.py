"""The turn protocol of one episode (spec §4), free of any RL API.

The agent's fixed greeting opens (unless the task supplies a history); a tool call keeps the
floor for the caller, who alone sees the result; a message passes the floor; a stop, or a stop
token in a message, ends the conversation. Tool errors accumulate towards ``max_errors``
(termination) and steps towards ``max_steps`` (truncation). Steps are counted as the reference
counts them: each message one, each tool call two (the call and its result).

Each side's view (`SideView`) grows by appending; nothing is rebuilt per step, and a message's
observation entry is built when first read (a loop that reads messages pays nothing for it).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from operator import is_
from typing import Any

from tau_env.actions import Action, CallTool, SendMessage, Stop, parse_arguments
from tau_env.env.spaces import ROLE_INDEX, TOOL_NAME_LENGTH
from tau_env.grading.outcome import TerminationReason
from tau_env.messages import (
    STOP_MARK,
    STOP_TOKENS,
    AssistantMessage,
    Message,
    Requestor,
    Side,
    ToolCall,
    ToolMessage,
    UserMessage,
    has_stop_token,
    requestor_of,
    trusted,
)
from tau_env.state.world import World
from tau_env.tools.nesting import clipped, nests_deeper_than

__all__ = ["GREETING", "Conversation", "Seating", "SideView"]

GREETING = "Hi! How can I help you today?"
"""The agent's fixed first message (not an action)."""

_NO_ENTRIES: tuple[()] = ()  # a view's observation entries before they are first read

_OTHER: dict[Side, Side] = {"agent": "user", "user": "agent"}
SIDES: tuple[Side, Side] = ("agent", "user")


@dataclass(frozen=True)
class Seating:
    """Who opens the conversation and whose tools each side may call.

    The default is the reference's dual control. Modes that change these rules (No-User) pass
    another seating to ``TauEnv.reset(options={"seating": ...})``; the env itself has no modes.

    Attributes:
        greeting: The agent's fixed first message; None: no greeting, the agent acts first.
        borrowed_tools: Per side, names of the *other* side's tools it may call. Such a call
            runs on the other side's database (as the reference's solo mode routes the agent's
            calls of user tools); it is recorded as the caller's and its result goes to the
            caller.
    """

    greeting: str | None = GREETING
    borrowed_tools: Mapping[Side, frozenset[str]] = field(default_factory=dict)


DUAL_CONTROL = Seating()


@dataclass
class SideView:
    """Everything one side has seen.

    Attributes:
        history: Every message visible to this side, in order (append-only; do not modify).
        inbox: The messages that arrived since this side last acted.
        max_text_length: Bound of the texts of `inbox_entries` (longer ones are clipped).
    """

    history: list[Message] = field(default_factory=list)
    inbox: list[Message] = field(default_factory=list)
    max_text_length: int = 1 << 20
    # The entries of the inbox's first messages, built so far; `inbox_entries` adds the rest.
    # `_NO_ENTRIES` until first read: a loop that never reads them makes no list per step.
    _entries: list[dict[str, Any]] | tuple[()] = field(
        default=_NO_ENTRIES, repr=False, compare=False
    )

    @property
    def inbox_entries(self) -> list[dict[str, Any]]:
        """`inbox` as observation-space entries (`observation_entry`), in the same order.

        Each message's entry is built when first read, then kept: participants that read the
        messages themselves (scripted users, oracles, LLM agents) never pay for entries, and
        an observation per step builds one entry per new message. Do not modify the list.
        """
        entries = self._entries
        if type(entries) is not list:  # `_NO_ENTRIES`: the first read since the side acted
            entries = self._entries = []
        unbuilt = self.inbox[len(entries) :]
        if unbuilt:
            bound = self.max_text_length
            for message in unbuilt:  # (a loop: usually one message, no comprehension)
                entries.append(observation_entry(message, bound))
        return entries


def observation_entry(message: Message, max_text_length: int = 1 << 20) -> dict[str, Any]:
    """A message in the observation space's layout.

    Text is clipped to the space's bounds (`max_text_length`, `TOOL_NAME_LENGTH` for the tool
    name), so that a huge message or an invented tool name never puts an observation outside
    its space; the message itself (in the trajectory and the views) is kept whole.
    """
    if message.role == "tool":  # (`isinstance` against a pydantic class costs more)
        return {
            "role": _TOOL_ROLE,
            "content": (message.content or "")[:max_text_length],
            "tool_name": (message.name or "")[:TOOL_NAME_LENGTH],
            "error": int(message.error),
        }
    return {
        "role": ROLE_INDEX[message.role],
        "content": (message.content or "")[:max_text_length],
        "tool_name": "",
        "error": 0,
    }


class Conversation:
    """One episode's dialogue state: whose turn it is, what each side saw, how it ended.

    Args:
        world: The episode's world (already in the task's initial state).
        history: The task's message history (None or empty: the greeting opens).
        max_steps: Steps after which the episode is truncated.
        max_errors: Cumulative tool errors (both sides) after which it terminates.
        seating: Who opens and whose tools each side may call (default: dual control).
        max_text_length: Bound of observed texts (longer ones are clipped in observations).
    """

    def __init__(
        self,
        world: World,
        history: Sequence[Message] | None,
        max_steps: int,
        max_errors: int,
        seating: Seating = DUAL_CONTROL,
        max_text_length: int = 1 << 20,
    ) -> None:
        self.world = world
        self.max_text_length = max_text_length
        self.max_steps = max_steps
        self.max_errors = max_errors
        greeting = None if history or seating.greeting is None else seating.greeting
        if greeting is None:
            self.trajectory: list[Message] = []
            agent_history, user_history, user_inbox = [], [], []
        else:  # `_say` of the greeting, spelled out: each list starts with it
            opening = _shared_text_message("agent", greeting)
            self.trajectory = [opening]
            agent_history, user_history, user_inbox = [opening], [opening], [opening]
        self.views: dict[Side, SideView] = {
            # positional: the defaults' factories cost more
            "agent": SideView(agent_history, [], max_text_length, _NO_ENTRIES),
            "user": SideView(user_history, user_inbox, max_text_length, _NO_ENTRIES),
        }
        self.step_count = 0
        self.num_errors = 0
        self.termination: TerminationReason | None = None
        self.error_note: str | None = None
        self._calls = 0
        self.seating = seating
        self.turn: Side = "user"
        if history:
            self._load_history(history)
        elif greeting is None:
            self.turn = "agent"

    # -- state ---------------------------------------------------------------------------------
    @property
    def done(self) -> bool:
        """True once the episode has ended, for whatever reason."""
        return self.termination is not None

    @property
    def truncated(self) -> bool:
        """True when the step limit ended the episode."""
        return self.termination is _MAX_STEPS

    # -- acting --------------------------------------------------------------------------------
    def act(self, action: Action) -> None:
        """Apply the action of the side whose turn it is.

        Raises:
            RuntimeError: The conversation has already ended.
        """
        if self.termination is not None:
            raise RuntimeError("the conversation has ended")
        side = self.turn
        view = self.views[side]
        if view.inbox:  # the side acts: what it had not yet seen is now seen
            view.inbox = []
            view._entries = _NO_ENTRIES  # (they were the old inbox's)
        # Told apart by exact class first: `isinstance` against a pydantic model class that
        # does not match runs ABCMeta's check (~0.1 us); subclasses take `_act_as_base`.
        if type(action) is SendMessage:
            self._send(side, action)
        elif type(action) is CallTool:
            self._call_tool(side, view, action)
        elif type(action) is Stop:
            self._stop(side, action)
        else:
            self._act_as_base(side, view, action)
        if self.termination is None:  # `_check_limits()`, spelled out
            if self.num_errors >= self.max_errors:
                self.termination = _TOO_MANY_ERRORS
            elif self.step_count >= self.max_steps:
                self.termination = _MAX_STEPS

    def _act_as_base(self, side: Side, view: SideView, action: Action) -> None:
        """`act` for an instance of a subclass of an action class: as its base class."""
        if isinstance(action, CallTool):
            self._call_tool(side, view, action)
        elif isinstance(action, SendMessage):
            self._send(side, action)
        else:
            self._stop(side, action)

    def _call_tool(self, side: Side, view: SideView, action: CallTool) -> None:
        """The call and its result: two records, both seen by the caller alone.

        The hot path of every episode: the records are built without validation (`trusted`)
        and appended to the trajectory and the caller's view directly.
        """
        self._calls += 1
        name = action.name
        call_id = action.call_id or f"call_{self._calls}"
        arguments: dict[str, Any] | str = action.arguments
        if isinstance(arguments, dict):
            recorded = arguments
        else:
            try:
                recorded = arguments = parse_arguments(arguments)
            except ValueError:  # recorded as given; the world answers with a precise error
                recorded = {"_raw_arguments": arguments}
        # The call runs first and both records are added after it: a call never stands in the
        # trajectory without its result.
        borrowed = self.seating.borrowed_tools
        if borrowed and name in borrowed.get(side, ()):
            result = self.world.call_tool(_OTHER[side], name, arguments)
        else:
            result = self.world.call_tool(side, name, arguments)
        content, error = result.content, result.error
        if error and nests_deeper_than(recorded):  # (refused: only failed calls nest so deep)
            recorded = clipped(recorded)
        requestor = _REQUESTOR[side]
        call = trusted(
            ToolCall,
            # a copy, as validation made one: the record never shares the caller's dict
            {"id": call_id, "name": name, "arguments": dict(recorded), "requestor": requestor},
            _TOOL_CALL_GIVEN,
        )
        if side == "agent":
            fields = {"role": "assistant", "content": None, "tool_calls": [call], "request": None}
            message: Message = trusted(AssistantMessage, fields, _CALLS_GIVEN)
        else:
            fields = {"role": "user", "content": None, "tool_calls": [call]}
            message = trusted(UserMessage, fields, _CALLS_GIVEN)
        trajectory = self.trajectory
        trajectory.append(message)
        history = view.history
        history.append(message)
        reply_fields: dict[str, Any] = {
            "role": "tool",
            "id": call_id,
            "content": content,
            "requestor": requestor,
            "error": error,
            "name": name,
        }
        reply = trusted(ToolMessage, reply_fields, _TOOL_MESSAGE_GIVEN)
        trajectory.append(reply)
        history.append(reply)  # the caller alone sees the result
        view.inbox.append(reply)
        self.step_count += 2
        if error:
            self.num_errors += 1

    def _send(self, side: Side, action: SendMessage) -> None:
        content = action.content
        # `has_text`, spelled out, and `has_stop_token` asked only of text holding a stop
        # token's start: two Python calls fewer for the usual message.
        if content is None or not content.strip():
            self.termination = _AGENT_ERROR if side == "agent" else _USER_ERROR
            self.error_note = f"the {side} sent a message without text"
            return
        self._say(side, _sent_message(side, action))
        self.step_count += 1
        if STOP_MARK in content and has_stop_token(content):
            self._end_by(side)
        else:
            self.turn = _OTHER[side]

    def _stop(self, side: Side, action: Stop) -> None:
        content = STOP_TOKENS[action.reason]
        self._say(side, _shared_text_message(side, content))
        self.step_count += 1
        self._end_by(side)

    def _end_by(self, side: Side) -> None:
        self.termination = _STOPPED_BY[side]

    def _say(self, side: Side, message: Message) -> None:
        """Record `side`'s text `message` and deliver it.

        Every text message passes here (greeting, messages, stops): it joins the trajectory
        and both histories, and the other side's inbox.
        """
        self.trajectory.append(message)
        views = self.views
        views[side].history.append(message)
        view = views[_OTHER[side]]
        view.history.append(message)
        view.inbox.append(message)

    # -- history -------------------------------------------------------------------------------
    def _load_history(self, history: Sequence[Message]) -> None:
        """Give each side the history it could have seen, and the floor to the right side.

        Agent: its own messages, user text, and results of its own calls. User: its own
        messages, agent text, and results of its own calls (spec §4, initialize step 6). The
        split is worked out once per history (`_history_layout`); each episode gets its own
        lists (and observation entries, built when read).
        """
        layout = _history_layout(history)
        self.trajectory.extend(history)
        for side, (seen, unseen) in zip(SIDES, layout.sides, strict=True):
            view = self.views[side]
            view.history.extend(seen)
            view.inbox = list(unseen)
        self.turn = layout.turn
        if layout.stopped_by is not None:
            self._end_by(layout.stopped_by)


_SeenBy = tuple[tuple[Message, ...], tuple[Message, ...]]
"""One side's share of a history: what it saw, and what it has not yet seen."""


@dataclass(frozen=True)
class _HistoryLayout:
    """What a task's message history gives each side at reset.

    Attributes:
        messages: The history it was worked out from (the memo checks it is still that one).
        sides: Per side (in `SIDES` order): every message it saw, and the ones that arrived
            after its own last message (its inbox).
        turn: The side that has the floor after the history.
        stopped_by: The side whose stop token ends the history (None: it goes on).
    """

    messages: tuple[Message, ...]
    sides: tuple[_SeenBy, ...]
    turn: Side
    stopped_by: Side | None


_LAYOUTS: dict[int, tuple[Sequence[Message], _HistoryLayout]] = {}
_MAX_LAYOUTS = 10_000  # generated tasks come and go: the memo is emptied past this size


def _history_layout(history: Sequence[Message]) -> _HistoryLayout:
    """`_layout_of` `history`, remembered per history (a task's) while its messages are the same.

    Splitting a history costs several times a whole short episode, and a task's history is
    the same at every reset.
    """
    key = id(history)
    cached = _LAYOUTS.get(key)
    if cached is not None and cached[0] is history:
        layout = cached[1]
        if len(layout.messages) == len(history) and all(map(is_, layout.messages, history)):
            return layout
    if len(_LAYOUTS) >= _MAX_LAYOUTS:
        _LAYOUTS.clear()
    layout = _layout_of(history)
    _LAYOUTS[key] = (history, layout)
    return layout


def _layout_of(history: Sequence[Message]) -> _HistoryLayout:
    """Split a (non-empty) history between the sides and find who has the floor after it."""
    sides = tuple(_seen_by(history, side) for side in SIDES)
    last = history[-1]
    turn: Side
    if isinstance(last, ToolMessage):
        turn = "agent" if last.requestor == "assistant" else "user"
    elif isinstance(last, AssistantMessage):
        turn = "user"
    else:
        turn = "agent"
    stopped_by: Side | None = None
    if (
        isinstance(last, AssistantMessage | UserMessage)
        and last.content
        and has_stop_token(last.content)
    ):
        stopped_by = "agent" if isinstance(last, AssistantMessage) else "user"
    return _HistoryLayout(tuple(history), sides, turn, stopped_by)


def _seen_by(history: Sequence[Message], side: Side) -> _SeenBy:
    """What `side` saw of `history`; its inbox is what arrived after its own last message."""
    seen = [message for message in history if _visible_to(message, side)]
    last_own = max((i for i, m in enumerate(seen) if _sent_by(m, side)), default=-1)
    unseen = [m for m in seen[last_own + 1 :] if not _sent_by(m, side)]
    return tuple(seen), tuple(unseen)


# The env's own records are built from validated actions without validating again (`trusted`);
# each names the fields its validating constructor call would have been given.
_TOOL_CALL_GIVEN = frozenset(("id", "name", "arguments", "requestor"))
_TOOL_MESSAGE_GIVEN = frozenset(("id", "content", "requestor", "error", "name"))
_CALLS_GIVEN = frozenset(("tool_calls",))
_TOOL_ROLE = ROLE_INDEX["tool"]
# Enum members looked up once: `TerminationReason.X` goes through EnumType's attribute hook.
_MAX_STEPS = TerminationReason.MAX_STEPS
_TOO_MANY_ERRORS = TerminationReason.TOO_MANY_ERRORS
_AGENT_ERROR = TerminationReason.AGENT_ERROR
_USER_ERROR = TerminationReason.USER_ERROR
_STOPPED_BY: dict[Side, TerminationReason] = {
    "agent": TerminationReason.AGENT_STOP,
    "user": TerminationReason.USER_STOP,
}
_REQUESTOR: dict[Side, Requestor] = {"agent": "assistant", "user": "user"}


def _text_message(side: Side, content: str) -> Message:
    """``AssistantMessage(content=...)`` or ``UserMessage(content=...)`` (greetings, stops)."""
    if side == "agent":
        fields = {"role": "assistant", "content": content, "tool_calls": None, "request": None}
        return trusted(AssistantMessage, fields, _TEXT_GIVEN)
    return trusted(
        UserMessage, {"role": "user", "content": content, "tool_calls": None}, _TEXT_GIVEN
    )


def _sent_message(side: Side, action: SendMessage) -> Message:
    """The message of a `SendMessage`: the agent's carries the action's request (maybe None)."""
    if side == "agent":
        fields = {
            "role": "assistant",
            "content": action.content,
            "tool_calls": None,
            "request": action.request,
        }
        return trusted(AssistantMessage, fields, _REQUEST_GIVEN)
    return _text_message(side, action.content)


@functools.lru_cache(maxsize=128)  # greetings and stop tokens are few
def _shared_text_message(side: Side, content: str) -> Message:
    """`side`'s message saying `content`, one record per side and text, for fixed texts.

    The greeting and the stop messages say the same in every episode, so every episode gets
    the same record, as the episodes of a task share the records of its message history
    (records in a trajectory are never changed). Building each afresh cost about 5 k
    instructions, together some 2.5 % of a mock episode.
    """
    return _text_message(side, content)


_TEXT_GIVEN = frozenset(("content",))
_REQUEST_GIVEN = frozenset(("content", "request"))


def _sent_by(message: Message, side: Side) -> bool:
    if isinstance(message, ToolMessage):
        return False
    return (message.role == "assistant") == (side == "agent")


def _visible_to(message: Message, side: Side) -> bool:
    if isinstance(message, ToolMessage):
        return message.requestor == requestor_of(side)
    if _sent_by(message, side):
        return True
    return not message.tool_calls
