"""Playing one episode with two participants through the standard AEC loop."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tau_env.grading.outcome import Grade
from tau_env.messages import Message
from tau_env.participant import ParticipantFactory

__all__ = ["EpisodeResult", "run_episode"]


@dataclass(frozen=True)
class EpisodeResult:
    """What one finished episode produced.

    Attributes:
        task_id: The task played.
        seed: The seed passed to ``reset``.
        reward: The terminal reward (the grade's reward).
        grade: The full grade.
        trajectory: Every message of both sides.
        steps: Steps counted as the reference counts them.
    """

    task_id: str
    seed: int | None
    reward: float
    grade: Grade
    trajectory: list[Message]
    steps: int


def run_episode(
    env: Any,
    agent: ParticipantFactory,
    user: ParticipantFactory,
    *,
    task_id: str | None = None,
    seed: int | None = None,
) -> EpisodeResult:
    """Reset `env` and let the two participants play until the episode ends.

    Args:
        env: A tau_env AEC environment (wrapped or not).
        agent: Builds the agent-side participant for the episode's task.
        user: Builds the user-side participant for the episode's task.
        task_id: The task to play (None: the env's next task).
        seed: Seed for ``reset``.
    """
    # The bare env enforces its own call order (ResetNeeded); skipping PettingZoo's
    # order-enforcing wrapper here saves its per-attribute indirection on every step.
    raw = env.unwrapped
    raw.reset(seed=seed, options={"task_id": task_id} if task_id is not None else None)
    task = raw.task
    players = {"agent": agent(task), "user": user(task)}
    for side in raw.agent_iter():
        _, _, terminated, truncated, _ = raw.last(observe=False)
        if terminated or truncated:
            raw.step(None)
            continue
        player = players[side]
        if not hasattr(player, "act"):
            raise TypeError(f"{type(player).__name__} has no act(); use an async runner")
        raw.step(player.act(raw.view(side), raw.context(side)))
    grade = raw.grade
    assert grade is not None, "an ended episode always has a grade"
    conversation = raw.conversation
    return EpisodeResult(
        task_id=task.id,
        seed=seed,
        reward=grade.reward,
        grade=grade,
        trajectory=list(conversation.trajectory),
        steps=conversation.step_count,
    )
