"""One episode as a coroutine: awaits participants that think asynchronously, steps the env.

The env's steps are synchronous and fast (no I/O), so they run inline; a participant with
``aact`` is awaited (inside the optional gate that bounds concurrent model calls), one with only
``act`` runs inline. Many episodes interleave on one event loop while they wait on models.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any

from tau_env.actions import Action
from tau_env.episode_runner import bare_env, live_turns
from tau_env.grading.outcome import Grade, TerminationReason
from tau_env.messages import Message, Side
from tau_env.participant import (
    AsyncParticipant,
    Participant,
    ParticipantFactory,
    build_participant,
)
from tau_env.rollout.failures import Fault, classify
from tau_env.user_faults import UserFaults, user_faults

__all__ = ["EpisodeAborted", "PlayedEpisode", "play_episode"]

Player = Participant | AsyncParticipant


@dataclass(frozen=True)
class PlayedEpisode:
    """A finished, graded episode.

    Attributes:
        task_id: The task played.
        seed: The episode seed.
        grade: The grade (reward 0 with a note when a participant failed).
        termination: How it ended (a reference termination reason).
        trajectory: Every message of both sides.
        steps: Steps as the reference counts them.
        players: The participants, by side (no user under No-User), for their usage.
        note: Why the episode ended early, when a participant failed.
        user_faults: What the simulated user got wrong (`tau_env.user_faults`).
    """

    task_id: str
    seed: int
    grade: Grade
    termination: str
    trajectory: list[Message]
    steps: int
    players: dict[Side, Player]
    note: str | None = None
    user_faults: UserFaults = field(default_factory=UserFaults)


class EpisodeAborted(Exception):
    """The episode produced nothing gradable: an infrastructure fault or a crash.

    Attributes:
        fault: `Fault.INFRASTRUCTURE` or `Fault.CRASH`.
        error: The underlying exception.
    """

    def __init__(self, fault: Fault, error: BaseException) -> None:
        super().__init__(f"{fault.value}: {type(error).__name__}: {error}")
        self.fault = fault
        self.error = error


async def play_episode(
    env: Any,
    factories: Mapping[Side, ParticipantFactory],
    *,
    task_id: str,
    seed: int,
    gate: AbstractAsyncContextManager[Any] | None = None,
) -> PlayedEpisode:
    """Reset `env` on a task and play it to the end.

    Args:
        env: A tau_env AEC env, possibly wrapped (modes); views and contexts are read through
            the wrappers, so a mode that changes what a side sees is honoured.
        factories: Builds each side's participant from the task.
        task_id: The task to play.
        seed: Seeds the env reset and the participants.
        gate: Entered around every awaited decision (a global model-call limit).

    Raises:
        EpisodeAborted: An infrastructure fault or a crash; nothing was graded.
    """
    try:
        env.reset(seed=seed, options={"task_id": task_id})
        task = env.task
        sides: list[Side] = list(env.possible_agents)  # a mode may remove the user
        players: dict[Side, Player] = {
            side: build_participant(factories[side], task, seed) for side in sides
        }
    except Exception as error:
        raise EpisodeAborted(Fault.CRASH, error) from error
    # Through the wrappers when there are modes (a mode may change what a side sees); the bare
    # env otherwise, with its methods looked up once per episode (as `run_episode` does).
    bare = bare_env(env)
    driven = env if bare is None else bare
    view, context, step = driven.view, driven.context, driven.step
    for side in live_turns(env):
        try:
            action = await _decide(players[side], view(side), context(side), gate)
            step(action)
        except Exception as error:
            fault = classify(error)
            if fault in (Fault.INFRASTRUCTURE, Fault.CRASH):
                raise EpisodeAborted(fault, error) from error
            return _ended_by(env, side, fault, error, task_id, seed, players)
    grade: Grade = driven.grade
    conversation = driven.conversation
    trajectory = list(conversation.trajectory)
    return PlayedEpisode(
        task_id=task_id,
        seed=seed,
        grade=grade,
        termination=grade.termination.value,
        trajectory=trajectory,
        steps=conversation.step_count,
        players=players,
        user_faults=_faults(env, players, trajectory, grade.termination.value),
    )


async def _decide(
    player: Player, view: Any, context: Any, gate: AbstractAsyncContextManager[Any] | None
) -> Action:
    aact = getattr(player, "aact", None)
    if aact is not None:
        action: Action
        if gate is None:  # no context manager to enter: the common case, once per decision
            action = await aact(view, context)
        else:
            async with gate:
                action = await aact(view, context)
        return action
    act = getattr(player, "act", None)
    if act is None:
        raise TypeError(f"{type(player).__name__} has neither act() nor aact()")
    action = act(view, context)
    await asyncio.sleep(0)  # let other episodes run between inline decisions
    return action


def _ended_by(
    env: Any,
    side: Side,
    fault: Fault,
    error: BaseException,
    task_id: str,
    seed: int,
    players: dict[Side, Player],
) -> PlayedEpisode:
    """The episode as it stood when a participant failed, graded 0 as that side's error."""
    reason = TerminationReason.AGENT_ERROR if side == "agent" else TerminationReason.USER_ERROR
    termination = "context_window_exceeded" if fault is Fault.CONTEXT_WINDOW else reason.value
    note = f"the {side} failed: {type(error).__name__}: {error}"
    conversation = env.conversation
    trajectory = list(conversation.trajectory)
    return PlayedEpisode(
        task_id=task_id,
        seed=seed,
        grade=Grade(reward=0.0, termination=reason, note=note),
        termination=termination,
        trajectory=trajectory,
        steps=conversation.step_count,
        players=players,
        note=note,
        user_faults=_faults(env, players, trajectory, termination),
    )


def _faults(
    env: Any, players: dict[Side, Player], trajectory: list[Message], termination: str
) -> UserFaults:
    """The user-side fault flags of a finished episode (none without a user)."""
    user = players.get("user")
    if user is None:
        return UserFaults()
    raw = env.unwrapped
    tools = [tool["function"]["name"] for tool in raw.context("user").tools]
    empty = getattr(user, "empty_replies", 0)
    return user_faults(
        raw.task,
        trajectory,
        termination,
        user_tools=tools,
        agent_tools=raw.context("agent").tool_names,
        empty_replies=empty if isinstance(empty, int) else 0,
    )
