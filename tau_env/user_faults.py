"""Flags for what a simulated user got wrong in an episode, so results can be read without them.

A simulated user (scripted or LLM) can spoil an episode the agent played well. Each finished
episode carries three flags, stored with it and counted in run reports (``tau-env report``
can leave flagged episodes out of pass^k):

- ``empty_turns``: replies of the user's model that were empty (each is retried as an
  infrastructure fault; the count stays visible) plus empty user messages in the conversation.
- ``early_stop``: the user ended the conversation (``###STOP###``) while an action of the
  agent's was still pending: before the agent said anything after its greeting, or right
  after the agent asked the user to run one of the user's tools, without running any. The
  protocol holds it to its word (the episode ends and is graded as the reference grades it);
  the flag says the ending was the user's doing.
- ``instruction_leak``: a user message repeats 8 or more consecutive words of its scenario
  (names, ids, numbers and quoted facts left out; `tau_env.wrappers.users.parroting`, the
  check the scripted user's own tests hold it to), or 12 or more read plainly (nothing hidden
  but ids, amounts and names: an attribute list or a quoted literal read out counts;
  `tau_env.wrappers.users.plain_reading`): a real customer does not read out their brief.
- ``program_speech``: a user message speaks like a program: a tool name, function-call
  syntax, a program literal or a machine-formatted line of a tool result it received, verbatim
  (`tau_env.wrappers.users.plain_reading.program_speech`): a customer says what the screen
  shows in their own words.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from tau_env.messages import STOP_TOKENS, Message
from tau_env.tasks.model import Task

__all__ = ["UserFaults", "user_faults"]


@dataclass(frozen=True)
class UserFaults:
    """What the simulated user got wrong in one episode (see the module docstring)."""

    empty_turns: int = 0
    early_stop: bool = False
    instruction_leak: bool = False
    program_speech: bool = False

    @property
    def any(self) -> bool:
        """True when any flag is raised."""
        return bool(
            self.empty_turns or self.early_stop or self.instruction_leak or self.program_speech
        )

    def to_dict(self) -> dict[str, Any]:
        """The flags as JSON-ready data."""
        return asdict(self)


def user_faults(
    task: Task,
    trajectory: Sequence[Message],
    termination: str,
    *,
    user_tools: Collection[str] = (),
    agent_tools: Collection[str] = (),
    empty_replies: int = 0,
) -> UserFaults:
    """The user-side fault flags of a finished episode.

    Args:
        task: The task played (its scenario's instructions).
        trajectory: Every message of the episode.
        termination: How it ended (a termination reason's value).
        user_tools: Names of the user's tools (requests for them make an action pending).
        agent_tools: Names of the agent's tools (a user who says one speaks like a program).
        empty_replies: Empty replies of the user's model that were retried.
    """
    said = [m for m in trajectory if m.role == "user" and not m.tool_calls]
    empty = sum(not (m.content or "").strip() for m in said)
    texts = [m.content or "" for m in said]
    return UserFaults(
        empty_turns=empty_replies + empty,
        early_stop=termination == "user_stop" and _stopped_early(trajectory, user_tools),
        instruction_leak=_leaks(task, texts),
        program_speech=_speaks_code(trajectory, texts, {*user_tools, *agent_tools}),
    )


def _stopped_early(trajectory: Sequence[Message], user_tools: Collection[str]) -> bool:
    last = trajectory[-1] if trajectory else None
    if last is None or last.role != "user" or STOP_TOKENS["done"] not in (last.content or ""):
        return False  # a transfer or out-of-scope ending is the agent's call
    agent_turns = [i for i, m in enumerate(trajectory) if m.role == "assistant"]
    if len(agent_turns) <= 1:
        return True  # nothing after the greeting
    asked = trajectory[agent_turns[-1]]
    if getattr(asked, "tool_calls", None):
        return False
    request = getattr(asked, "request", None)
    wanted = bool(request is not None and request.tool_calls)
    text = asked.content or ""
    wanted = wanted or any(name in text for name in user_tools)
    acted = any(m.role == "user" and m.tool_calls for m in trajectory[agent_turns[-1] :])
    return wanted and not acted


def _speaks_code(trajectory: Sequence[Message], texts: Sequence[str], tools: set[str]) -> bool:
    from tau_env.wrappers.users.plain_reading import program_speech

    outputs = [
        m.content or ""
        for m in trajectory
        if m.role == "tool" and getattr(m, "requestor", "assistant") == "user"
    ]
    return any(program_speech(text, tools, outputs) for text in texts if text)


def _leaks(task: Task, texts: Sequence[str]) -> bool:
    from tau_env.wrappers.users.parroting import ScenarioWords

    scenario = ScenarioWords.of(str(task.user_scenario))  # built once per scenario text
    return any(scenario.copied(text) for text in texts if text)
