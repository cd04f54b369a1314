"""The gold user: the oracle agent's partner for gold replays.

It states its request, performs exactly the user tool calls the agent's structured requests
name, and ends the conversation when the agent replies without a request (``###TRANSFER###``
after a transfer announcement, ``###STOP###`` otherwise). It never improvises, so a gold
replay through the env is deterministic. `ScriptedUser` is the general scripted user (plain
text, facts, goal checks); this one exists for exact gold replays of any task.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from tau_env.actions import Action, CallTool, SendMessage, Stop
from tau_env.domain import Domain
from tau_env.env.aec import SideContext
from tau_env.env.conversation import SideView
from tau_env.messages import AssistantMessage, RequestedToolCall, has_stop_token, trusted
from tau_env.tasks.model import Task
from tau_env.wrappers.users.script import opening_line

__all__ = ["GoldUser", "opening_line"]


class GoldUser:
    """Plays the user side of one gold replay.

    Args:
        task: The task being replayed.
        domain: The task's domain, whose scenario vocabulary may say where a scenario
            states the opening line (banking); see `opening_line`.
        opening: The first message, when the caller fixes it instead of reading it from the
            scenario (a replay that only checks the grade: no grader reads the user's words).
    """

    def __init__(
        self, task: Task, domain: Domain | None = None, *, opening: SendMessage | None = None
    ) -> None:
        self._opening = opening if opening is not None else _opening_of(task, domain)
        self.opened = False
        self.pending: list[RequestedToolCall] = []  # requested calls not yet performed
        self.performed_request = False

    @property
    def opening(self) -> str:
        """The user's first message (`opening_line`)."""
        return self._opening.content

    @classmethod
    def factory(cls, domain: Domain | None = None) -> Callable[[Task], GoldUser]:
        """A participant factory (task -> user) that knows the domain, for runners.

        Picklable (for process pools); its arguments are positional, because a class called
        with keywords packs them into a dict first (once per episode).
        """
        return partial(_user_of, cls, domain)

    def act(self, view: SideView, context: SideContext) -> Action:
        """Open, perform requested calls one by one, report back, or stop."""
        pending = self.pending
        if not pending:
            if self.performed_request:
                self.performed_request = False
                return _DONE
            if not self.opened:
                self.opened = True
                return self._opening
            latest = _latest_agent_message(view)
            if latest is None:
                return _STOP
            request = latest.request
            if request is None or not request.tool_calls:
                content = latest.content
                return _STOP_TRANSFER if content and "TRANSFERRED" in content else _STOP
            pending.extend(request.tool_calls)
        self.performed_request = True
        return _call_of(pending.pop(0))


def _user_of(cls: type[GoldUser], domain: Domain | None, task: Task) -> GoldUser:
    """``cls(task, domain)``: what `GoldUser.factory`'s partial calls."""
    return cls(task, domain)


_OPENINGS: dict[tuple[str, int], tuple[Task, Domain | None, SendMessage]] = {}
_MAX_OPENINGS = 10_000  # generated tasks come and go: the memo is emptied past this size


def _opening_of(task: Task, domain: Domain | None) -> SendMessage:
    """The message saying `opening_line` of `task`, made once per task (and domain).

    Reading the scenario's brief is cached by its text, but rendering the text and hashing
    it (and the vocabulary) cost more than the rest of the user's set-up per episode.
    """
    key = (task.id, id(domain))
    cached = _OPENINGS.get(key)
    if cached is None or cached[0] is not task or cached[1] is not domain:
        if len(_OPENINGS) >= _MAX_OPENINGS:
            _OPENINGS.clear()
        cached = (task, domain, _message(_checked_opening(task, domain)))
        _OPENINGS[key] = cached
    return cached[2]


def _checked_opening(task: Task, domain: Domain | None) -> str:
    """`opening_line`, refused when it holds a stop token: the episode would end at once.

    Raises:
        ValueError: The opening line holds a stop token (made without the domain, a
            banking_knowledge scenario is read whole, stop instructions included).
    """
    line = opening_line(task, domain)
    if has_stop_token(line):
        hint = (
            "; a scenario in a domain's own vocabulary (banking_knowledge) is read right only with "
            "the domain: make the user with GoldUser.factory(domain)"
            if domain is None
            else ""
        )
        raise ValueError(
            f"the gold user's opening line for task {task.id!r} holds a stop token, so the "
            f"episode would end at its first message{hint}"
        )
    return line


_MESSAGES: dict[str, SendMessage] = {}


def _message(text: str) -> SendMessage:
    """``SendMessage(content=text)``, made once per text (openings recur with their tasks)."""
    message = _MESSAGES.get(text)
    if message is None:
        if len(_MESSAGES) >= _MAX_OPENINGS:
            _MESSAGES.clear()
        message = _MESSAGES[text] = SendMessage(content=text)
    return message


# Actions are frozen models: every episode can be handed the same ones.
_DONE = SendMessage(content="Done, I did that.")
_STOP = Stop()
_STOP_TRANSFER = Stop(reason="transfer")
_CALL_GIVEN = frozenset(("name", "arguments"))


def _call_of(call: RequestedToolCall) -> CallTool:
    """``CallTool(name=call.name, arguments=dict(call.arguments))``, without validating again.

    The request was validated when the agent made it (`RequestedToolCall` has the same
    field types), so the action is built as validation would build it (`trusted`).
    """
    fields = {
        "kind": "tool_call",
        "name": call.name,
        "arguments": dict(call.arguments),
        "call_id": None,
    }
    return trusted(CallTool, fields, _CALL_GIVEN)


def _latest_agent_message(view: SideView) -> AssistantMessage | None:
    for message in reversed(view.inbox):
        if isinstance(message, AssistantMessage):
            return message
    return None
