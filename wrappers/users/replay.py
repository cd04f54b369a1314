"""The replay user: plays back the user side of a recorded trajectory.

Useful to re-run a recorded conversation against a changed agent or env (did the agent's
behaviour change the outcome?), and to reproduce an episode exactly without the model that
played the user. The user's actions are taken from the recording in order, whatever the
agent does now: its messages (stop tokens included) and its tool calls, with their recorded
call ids. Messages of the task's own ``message_history`` are skipped (reset replays them).
When the recording runs out, the user stops.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial

from tau_env.actions import Action, CallTool, SendMessage, Stop
from tau_env.env.aec import SideContext
from tau_env.env.conversation import SideView
from tau_env.llm.convert import RAW_ARGUMENTS_KEY
from tau_env.messages import Message, UserMessage
from tau_env.tasks.model import Task

__all__ = ["ReplayUser", "user_actions"]


def user_actions(trajectory: Sequence[Message]) -> Iterator[Action]:
    """The user side's actions in a trajectory, in order."""
    for message in trajectory:
        if not isinstance(message, UserMessage):
            continue
        if message.tool_calls:
            for call in message.tool_calls:
                raw = call.arguments.get(RAW_ARGUMENTS_KEY)
                malformed = isinstance(raw, str) and len(call.arguments) == 1
                yield CallTool(
                    name=call.name,
                    arguments=raw if malformed else dict(call.arguments),
                    call_id=call.id or None,
                )
        elif message.content is not None:
            yield SendMessage(content=message.content)


class ReplayUser:
    """Plays the user side of one episode from a recording.

    Args:
        task: The task being played.
        trajectory: The recorded episode (every message, as `EpisodeResult.trajectory`).
    """

    def __init__(self, task: Task, trajectory: Sequence[Message]) -> None:
        history = task.initial_state.message_history if task.initial_state else None
        recorded = list(trajectory)[len(history or ()) :]
        self.actions: deque[Action] = deque(user_actions(recorded))

    @classmethod
    def factory(cls, trajectories: Mapping[str, Sequence[Message]]) -> Callable[[Task], ReplayUser]:
        """A participant factory replaying ``trajectories[task.id]`` for each task."""
        return partial(_from_mapping, trajectories)

    def act(self, view: SideView, context: SideContext) -> Action:
        """The next recorded action, or a stop when the recording is exhausted."""
        return self.actions.popleft() if self.actions else Stop()


def _from_mapping(trajectories: Mapping[str, Sequence[Message]], task: Task) -> ReplayUser:
    if task.id not in trajectories:
        raise KeyError(f"no recorded trajectory for task {task.id!r}")
    return ReplayUser(task, trajectories[task.id])
