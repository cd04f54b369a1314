"""The turn protocol of one episode (spec §4), free of any RL API.

The agent's fixed greeting opens (unless the task supplies a history); a tool call keeps the
floor for the caller, who alone sees the result; a message passes the floor; a stop, or a stop
token in a message, ends the conversation. Tool errors accumulate towards ``max_errors``
(termination) and steps towards ``max_steps`` (truncation). Steps are counted as the reference
counts them: each message one, each tool call two (the call and its result).

Each side's view (`SideView`) grows by appending; nothing is rebuilt per step. Observation
entries are built when read (a loop that reads the messages themselves pays nothing for them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tau_env.actions import Action, CallTool, SendMessage, Stop, parse_arguments
from tau_env.env.spaces import ROLE_INDEX, TOOL_NAME_LENGTH
from tau_env.grading.outcome import TerminationReason
from tau_env.messages import (
    STOP_TOKENS,
    AssistantMessage,
    Message,
    Side,
    ToolCall,
    ToolMessage,
    UserMessage,
    has_stop_token,
    has_text,
    requestor_of,
    trusted,
)
from tau_env.state.world import World
from tau_env.tools.nesting import clipped, nests_deeper_than

__all__ = ["GREETING", "Conversation", "Seating", "SideView", "visible_to"]

GREETING = "Hi! How can I help you today?"
"""The agent's fixed first message (not an action)."""

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

    @property
    def inbox_entries(self) -> list[dict[str, Any]]:
        """`inbox` as observation-space entries (`observation_entry`), in the same order."""
        return [observation_entry(message, self.max_text_length) for message in self.inbox]


def observation_entry(message: Message, max_text_length: int = 1 << 20) -> dict[str, Any]:
    """A message in the observation space's layout.

    Text is clipped to the space's bounds (`max_text_length`, `TOOL_NAME_LENGTH` for the tool
    name), so that a huge message or an invented tool name never puts an observation outside
    its space; the message itself (in the trajectory and the views) is kept whole.
    """
    if message.role == "tool":
        return {
            "role": ROLE_INDEX["tool"],
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
        self.trajectory: list[Message] = []
        self.views: dict[Side, SideView] = {
            side: SideView(max_text_length=max_text_length) for side in SIDES
        }
        self.step_count = 0
        self.num_errors = 0
        self.termination: TerminationReason | None = None
        self.error_note: str | None = None
        self._calls = 0
        self.seating = seating
        self.turn: Side = "agent"
        if history:
            self._load_history(history)
        elif seating.greeting is not None:
            self._say("agent", _text_message("agent", seating.greeting))
            self.turn = "user"

    # -- state ---------------------------------------------------------------------------------
    @property
    def done(self) -> bool:
        """True once the episode has ended, for whatever reason."""
        return self.termination is not None

    @property
    def truncated(self) -> bool:
        """True when the step limit ended the episode."""
        return self.termination is TerminationReason.MAX_STEPS

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
        if isinstance(action, CallTool):
            self._call_tool(side, view, action)
        elif isinstance(action, SendMessage):
            self._send(side, action)
        else:
            self._stop(side, action)
        self._check_limits()

    def _check_limits(self) -> None:
        """End the episode once the error or step limit is reached."""
        if self.termination is None:
            if self.num_errors >= self.max_errors:
                self.termination = TerminationReason.TOO_MANY_ERRORS
            elif self.step_count >= self.max_steps:
                self.termination = TerminationReason.MAX_STEPS

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
        requestor = requestor_of(side)
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
        if not has_text(content):
            self.termination = (
                TerminationReason.AGENT_ERROR if side == "agent" else TerminationReason.USER_ERROR
            )
            self.error_note = f"the {side} sent a message without text"
            return
        self._say(side, _sent_message(side, action))
        self.step_count += 1
        if has_stop_token(content):
            self._end_by(side)
        else:
            self.turn = _OTHER[side]

    def _stop(self, side: Side, action: Stop) -> None:
        content = STOP_TOKENS[action.reason]
        self._say(side, _text_message(side, content))
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
        messages, agent text, and results of its own calls (spec §4, initialize step 6).
        """
        layout = _layout_of(history)
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
        sides: Per side (in `SIDES` order): every message it saw, and the ones that arrived
            after its own last message (its inbox).
        turn: The side that has the floor after the history.
        stopped_by: The side whose stop token ends the history (None: it goes on).
    """

    sides: tuple[_SeenBy, ...]
    turn: Side
    stopped_by: Side | None


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
    return _HistoryLayout(sides, turn, stopped_by)


def _seen_by(history: Sequence[Message], side: Side) -> _SeenBy:
    """What `side` saw of `history`; its inbox is what arrived after its own last message."""
    seen = [message for message in history if visible_to(message, side)]
    last_own = max((i for i, m in enumerate(seen) if _sent_by(m, side)), default=-1)
    unseen = [m for m in seen[last_own + 1 :] if not _sent_by(m, side)]
    return tuple(seen), tuple(unseen)


# The env's own records are built from validated actions without validating again (`trusted`);
# each names the fields its validating constructor call would have been given.
_TOOL_CALL_GIVEN = frozenset(("id", "name", "arguments", "requestor"))
_TOOL_MESSAGE_GIVEN = frozenset(("id", "content", "requestor", "error", "name"))
_CALLS_GIVEN = frozenset(("tool_calls",))
_STOPPED_BY: dict[Side, TerminationReason] = {
    "agent": TerminationReason.AGENT_STOP,
    "user": TerminationReason.USER_STOP,
}


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


_TEXT_GIVEN = frozenset(("content",))
_REQUEST_GIVEN = frozenset(("content", "request"))


def _sent_by(message: Message, side: Side) -> bool:
    if isinstance(message, ToolMessage):
        return False
    return (message.role == "assistant") == (side == "agent")


def visible_to(message: Message, side: Side) -> bool:
    """Whether `side` sees `message`: its own, the other side's text, results of its own calls."""
    if isinstance(message, ToolMessage):
        return message.requestor == requestor_of(side)
    if _sent_by(message, side):
        return True
    return not message.tool_calls
