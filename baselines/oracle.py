"""Oracle agents: follow a task's gold plan, asking the user to perform the user's steps.

Upper bounds and test fixtures. Agent steps become tool calls; each user step becomes one
message asking the user to perform it, asked again when the user says it did not follow (a
novice asks for an instruction twice or does something else instead; the oracle cannot see
the user's tools, only its words); at the end the agent tells the user every
``communicate_info`` string and, after a transfer, the transfer announcement.

`OracleAgent` attaches a structured request to its messages (the user tool calls, exactly),
for programmatic users; `PlainTextOracleAgent` writes the same request in plain text only
(``name(key=value, ...)`` lines, as the reference's oracle plan renders steps), so a user must
read it as it would read an LLM agent. `SoloOracleAgent` plays No-User mode: it performs every
step itself (user steps with the user's tools) and calls ``done``.
"""

from __future__ import annotations

from collections.abc import Iterator

from tau_env.actions import Action, CallTool, SendMessage, Stop
from tau_env.env.aec import SideContext
from tau_env.env.conversation import SideView
from tau_env.messages import AssistantMessage, RequestedToolCall, UserMessage, UserRequest
from tau_env.tasks.model import GoldAction, Task
from tau_env.transfer import TRANSFER_ANNOUNCEMENT, TRANSFER_TOOL
from tau_env.wrappers.no_user import DONE_TOOL
from tau_env.wrappers.users.matcher import did_not_follow

__all__ = ["OracleAgent", "PlainTextOracleAgent", "SoloOracleAgent", "flagged_actions"]

MAX_REPEATS = 3
"""How often the oracle asks again for one user step the user did not follow."""


class OracleAgent:
    """Plays the agent side of one episode by following the task's gold actions.

    Its plan never depends on what it sees, so its actions are worked out once per task (and
    class) and replayed: an episode costs the oracle no more than handing them over. The one
    thing it reads is the user's reply to a request: when the user says it did not follow,
    the request is repeated (at most `MAX_REPEATS` times).

    Args:
        task: The task whose gold plan to follow.
    """

    def __init__(self, task: Task) -> None:
        self._task = task
        self.plan: list[GoldAction] = task.gold_actions
        """The steps to follow (the task's gold actions unless set before the first act)."""
        criteria = task.evaluation_criteria
        self.to_communicate: list[str] = list(
            (criteria.communicate_info if criteria else None) or []
        )
        """What the closing message tells (the task's ``communicate_info`` unless set)."""
        self._script: _Script = ()
        self._played = 0
        self._last_request: Action | None = None
        self._repeats = 0

    def act(self, view: SideView, context: SideContext) -> Action:
        """Next gold step, a user step's request (again if not followed), closing, stops."""
        script = self._script or self._prepare()
        # A caller without the AEC view (a chat or OpenEnv client replaying the plan passes
        # None) gets the plan alone: no reply is read, so no request is repeated.
        request = self._last_request
        if request is not None and view is not None and (reply := _latest_user_text(view)):
            self._last_request = None
            if did_not_follow(reply) and self._repeats < MAX_REPEATS:
                self._repeats += 1
                self._last_request = request
                return request
        if self._played < len(script):
            action, asks = script[self._played]
            self._played += 1
            if asks:
                self._last_request, self._repeats = action, 0
            return action
        return _STOP

    def _prepare(self) -> _Script:
        if _words_as_this_module(type(self)):
            self._script = _script_of(self, self._task)  # this module's rules: same every time
        else:  # a subclass words its messages its own way: work them out for this episode
            self._script = flagged_actions(tuple(self.actions()))
        return self._script

    def actions(self) -> Iterator[Action]:
        """Every action of an episode, in order, ending with a stop.

        Agent steps become tool calls; each user step one message (`ask_user`); then the
        closing message (`_closing`).
        """
        for step in self.plan:
            if step.requestor == "assistant":
                yield CallTool(name=step.name, arguments=dict(step.arguments))
            else:
                yield self.ask_user([step])
        yield SendMessage(content=self._closing())
        yield _STOP

    def ask_user(self, steps: list[GoldAction]) -> SendMessage:
        """The message asking the user to perform `steps` (text plus a structured request)."""
        request = UserRequest(
            tool_calls=[RequestedToolCall(name=s.name, arguments=dict(s.arguments)) for s in steps]
        )
        return SendMessage(content=_instructions(steps), request=request)

    def _closing(self) -> str:
        transfers = any(step.name == TRANSFER_TOOL for step in self.plan)
        parts = [] if transfers else ["Everything you asked for is done."]
        if self.to_communicate:
            parts.append("For your records: " + "; ".join(self.to_communicate) + ".")
        if transfers:
            parts.append(TRANSFER_ANNOUNCEMENT)
        return " ".join(parts)


_STOP = Stop()
_Script = tuple[tuple[Action, bool], ...]
"""An episode's actions, each with whether it asks the user to perform a step."""
_SCRIPTS: dict[tuple[type, str], tuple[Task, _Script]] = {}
_MAX_SCRIPTS = 10_000  # generated tasks come and go: the cache is emptied past this size


_SCRIPTED_BY = ("actions", "ask_user", "_closing")


def _words_as_this_module(cls: type) -> bool:
    """True when `cls` takes every method of `_SCRIPTED_BY` from this module."""
    return all(getattr(cls, name).__module__ == __name__ for name in _SCRIPTED_BY)


def _script_of(agent: OracleAgent, task: Task) -> _Script:
    """The oracle's actions for `task`, worked out once per task and class.

    Actions are frozen models, so every episode can be handed the same ones.
    """
    key = (type(agent), task.id)
    cached = _SCRIPTS.get(key)
    if cached is None or cached[0] is not task:
        if len(_SCRIPTS) >= _MAX_SCRIPTS:
            _SCRIPTS.clear()
        cached = (task, flagged_actions(tuple(agent.actions())))
        _SCRIPTS[key] = cached
    return cached[1]


def flagged_actions(actions: tuple[Action, ...]) -> _Script:
    """`actions` with their request flags: every message before the closing one asks."""
    messages = [i for i, action in enumerate(actions) if isinstance(action, SendMessage)]
    closing = messages[-1] if messages else -1
    return tuple(
        (action, isinstance(action, SendMessage) and i != closing)
        for i, action in enumerate(actions)
    )


class PlainTextOracleAgent(OracleAgent):
    """`OracleAgent` that asks for the user's steps in plain text only (no structured request)."""

    def ask_user(self, steps: list[GoldAction]) -> SendMessage:
        """The message asking the user to perform `steps`, as text alone."""
        return SendMessage(content=_instructions(steps))


def _latest_user_text(view: SideView) -> str | None:
    """The user's newest message since the agent last acted (None when there is none)."""
    for message in reversed(view.inbox):
        if isinstance(message, UserMessage) and message.content:
            return message.content
        if isinstance(message, AssistantMessage):
            return None
    return None


def _instructions(steps: list[GoldAction]) -> str:
    lines = [f"- {step.call_text()}" for step in steps]
    return "Please do the following on your side, then tell me when it is done:\n" + "\n".join(
        lines
    )


class SoloOracleAgent:
    """Plays No-User mode (`tau_env.wrappers.NoUser`): every gold step, then ``done``.

    Args:
        task: The task whose gold plan to follow.
    """

    def __init__(self, task: Task) -> None:
        self.plan: list[GoldAction] = task.gold_actions
        self.next_step = 0

    def act(self, view: SideView, context: SideContext) -> Action:
        """The next gold step as a tool call (whoever it belongs to), then ``done``."""
        if self.next_step < len(self.plan):
            step = self.plan[self.next_step]
            self.next_step += 1
            return CallTool(name=step.name, arguments=dict(step.arguments))
        return CallTool(name=DONE_TOOL)
