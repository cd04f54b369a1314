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

from tau_env.actions import Action, CallTool, SendMessage, Stop
from tau_env.env.aec import SideContext
from tau_env.env.conversation import SideView
from tau_env.messages import AssistantMessage, RequestedToolCall, UserMessage, UserRequest
from tau_env.tasks.model import GoldAction, Task
from tau_env.transfer import TRANSFER_ANNOUNCEMENT, TRANSFER_TOOL
from tau_env.wrappers.no_user import DONE_TOOL
from tau_env.wrappers.users.matcher import did_not_follow

__all__ = ["OracleAgent", "PlainTextOracleAgent", "SoloOracleAgent"]

MAX_REPEATS = 3
"""How often the oracle asks again for one user step the user did not follow."""


class OracleAgent:
    """Plays the agent side of one episode by following the task's gold actions.

    Args:
        task: The task whose gold plan to follow.
    """

    def __init__(self, task: Task) -> None:
        self.plan: list[GoldAction] = task.gold_actions
        criteria = task.evaluation_criteria
        self.to_communicate: list[str] = list(
            (criteria.communicate_info if criteria else None) or []
        )
        self.next_step = 0
        self.finished = False
        self.last_request: SendMessage | None = None
        self.repeats = 0

    def act(self, view: SideView, context: SideContext) -> Action:
        """Next gold step, a request for the user's steps, or the closing message."""
        reply = _latest_user_text(view)
        if self.last_request is not None and reply is not None:
            request, self.last_request = self.last_request, None
            if did_not_follow(reply) and self.repeats < MAX_REPEATS:
                self.repeats += 1
                self.last_request = request
                return request
        if self.next_step < len(self.plan):
            step = self.plan[self.next_step]
            if step.requestor == "assistant":
                self.next_step += 1
                return CallTool(name=step.name, arguments=dict(step.arguments))
            return self._request_user_steps()
        if self.finished:
            return Stop()
        self.finished = True
        return SendMessage(content=self._closing())

    def _request_user_steps(self) -> SendMessage:
        step = self.plan[self.next_step]
        self.next_step += 1
        self.repeats = 0
        self.last_request = self.ask_user([step])
        return self.last_request

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
        if any(step.name == TRANSFER_TOOL for step in self.plan):
            parts = [TRANSFER_ANNOUNCEMENT]
        return " ".join(parts)


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
