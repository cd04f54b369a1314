"""Oracle agents: follow a task's gold plan, asking the user to perform the user's steps.

Upper bounds and test fixtures. Agent steps become tool calls; consecutive user steps become
one message asking the user to perform them; at the end the agent tells the user every
``communicate_info`` string and, after a transfer, the reference's transfer announcement.

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
from tau_env.messages import RequestedToolCall, UserRequest
from tau_env.tasks.model import GoldAction, Task
from tau_env.wrappers.no_user import DONE_TOOL

__all__ = ["TRANSFER_ANNOUNCEMENT", "OracleAgent", "PlainTextOracleAgent", "SoloOracleAgent"]

TRANSFER_ANNOUNCEMENT = "YOU ARE BEING TRANSFERRED TO A HUMAN AGENT. PLEASE HOLD ON."


class OracleAgent:
    """Plays the agent side of one episode by following the task's gold actions.

    What it does never depends on what it sees, so its actions are worked out once per task
    (and class) and replayed: an episode costs the oracle no more than handing them over.

    Args:
        task: The task whose gold plan to follow.
    """

    def __init__(self, task: Task) -> None:
        self.plan: list[GoldAction] = task.gold_actions
        criteria = task.evaluation_criteria
        self.to_communicate: list[str] = list(
            (criteria.communicate_info if criteria else None) or []
        )
        self._task = task
        self._script: tuple[Action, ...] = ()
        self._played = 0

    def act(self, view: SideView, context: SideContext) -> Action:
        """Next gold step, a request for the user's steps, the closing message, then stops."""
        script = self._script or self._prepare()
        if self._played < len(script):
            action = script[self._played]
            self._played += 1
            return action
        return _STOP

    def _prepare(self) -> tuple[Action, ...]:
        cls = type(self)
        if all(getattr(cls, name).__module__ == __name__ for name in _SCRIPTED_BY):
            self._script = _script_of(self, self._task)  # this module's rules: same every time
        else:  # a subclass words its messages its own way: work them out for this episode
            self._script = tuple(self.actions())
        return self._script

    def actions(self) -> Iterator[Action]:
        """Every action of an episode, in order, ending with a stop.

        Agent steps become tool calls; consecutive user steps one message (`ask_user`); then
        the closing message (`_closing`).
        """
        step = 0
        while step < len(self.plan):
            if self.plan[step].requestor == "assistant":
                action = self.plan[step]
                yield CallTool(name=action.name, arguments=dict(action.arguments))
                step += 1
                continue
            first = step
            while step < len(self.plan) and self.plan[step].requestor == "user":
                step += 1
            yield self.ask_user(self.plan[first:step])
        yield SendMessage(content=self._closing())
        yield _STOP

    def ask_user(self, steps: list[GoldAction]) -> SendMessage:
        """The message asking the user to perform `steps` (text plus a structured request)."""
        request = UserRequest(
            tool_calls=[RequestedToolCall(name=s.name, arguments=dict(s.arguments)) for s in steps]
        )
        return SendMessage(content=_instructions(steps), request=request)

    def _closing(self) -> str:
        parts = ["Everything you asked for is done."]
        if self.to_communicate:
            parts.append("For your records: " + "; ".join(self.to_communicate) + ".")
        if any(step.name == "transfer_to_human_agents" for step in self.plan):
            parts = [TRANSFER_ANNOUNCEMENT]
        return " ".join(parts)


_STOP = Stop()
_SCRIPTS: dict[tuple[type, str], tuple[Task, tuple[Action, ...]]] = {}
_MAX_SCRIPTS = 10_000  # generated tasks come and go: the cache is emptied past this size


_SCRIPTED_BY = ("actions", "ask_user", "_closing")


def _script_of(agent: OracleAgent, task: Task) -> tuple[Action, ...]:
    """The oracle's actions for `task`, worked out once per task and class.

    Actions are frozen models, so every episode can be handed the same ones.
    """
    key = (type(agent), task.id)
    cached = _SCRIPTS.get(key)
    if cached is None or cached[0] is not task:
        if len(_SCRIPTS) >= _MAX_SCRIPTS:
            _SCRIPTS.clear()
        cached = (task, tuple(agent.actions()))
        _SCRIPTS[key] = cached
    return cached[1]


class PlainTextOracleAgent(OracleAgent):
    """`OracleAgent` that asks for the user's steps in plain text only (no structured request)."""

    def ask_user(self, steps: list[GoldAction]) -> SendMessage:
        """The message asking the user to perform `steps`, as text alone."""
        return SendMessage(content=_instructions(steps))


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
