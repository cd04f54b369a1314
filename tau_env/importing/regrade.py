"""Re-grading a recorded conversation with tau_env's grader, as the reference re-grades one.

The reference's ``evaluate-trajs`` rebuilds the final world by replaying the recorded
conversation's state-changing tool calls on the task's starting world, leniently (a result that
differs from the recording is not an error), then grades the recorded messages with the
recorded termination. This module does the same with tau_env's world and `TaskGrader`: every
check is tau_env's own, so agreement with the recorded reward says whether the two
implementations grade this conversation alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from tau_env.domain import Domain
from tau_env.grading.context import Episode
from tau_env.grading.grader import TaskGrader
from tau_env.grading.outcome import Grade, TerminationReason
from tau_env.messages import AssistantMessage, Message, Side, UserMessage, side_of
from tau_env.state.world import World
from tau_env.tasks.model import Task

__all__ = ["regrade", "replay_writes"]


def regrade(
    domain: Domain,
    task: Task,
    messages: Sequence[Message],
    termination: TerminationReason,
    *,
    seed: int,
    solo: bool,
    grader: TaskGrader,
) -> Grade:
    """The grade tau_env gives a recorded conversation (checked by `read_conversation`).

    Args:
        domain: The domain, loaded from the data the run is graded against.
        task: The task played.
        messages: The whole conversation, the task's message history first.
        termination: How the conversation ended, as recorded.
        seed: Seeds ids that replayed tools draw at random (as a live episode's seed would).
        solo: No-User mode: the agent's calls of user tools act on the user's side.
        grader: Grades the episode (a judge, if any, rules on NL assertions).
    """
    history = (task.initial_state.message_history if task.initial_state else None) or []
    world = domain.prepare(task).initial_world.fork(seed)
    replay_writes(world, messages[len(history) :], solo=solo)
    drawn = seed if world.seed_source.drawn else None
    episode = Episode(
        task,
        messages,
        world,
        termination,
        partial(domain.expected_world, task, drawn),
        partial(domain.baseline, task),
    )
    return grader.grade(episode)


def replay_writes(world: World, messages: Sequence[Message], *, solo: bool) -> None:
    """Re-run the state-changing tool calls of `messages` on `world`, in order.

    Calls of unknown tools (hallucinated names) and of read-only tools are skipped, as the
    reference's replay skips them; results are not compared with the recorded ones.
    """
    agent_tools, user_tools = world.toolbox.tools("agent"), world.toolbox.tools("user")
    for message in messages:
        if not isinstance(message, AssistantMessage | UserMessage) or not message.tool_calls:
            continue
        for call in message.tool_calls:
            side: Side = side_of(call.requestor)
            if solo and side == "agent" and call.name not in agent_tools:
                side = "user"  # the reference routes a solo agent's user-tool calls there
            spec = (agent_tools if side == "agent" else user_tools).get(call.name)
            if spec is not None and spec.mutates_state:
                world.call_tool(side, call.name, call.arguments)
    world.sync()
