"""What a grader looks at: the task, the conversation, the final world, the expected world."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from tau_env.grading.outcome import TerminationReason
from tau_env.messages import Message
from tau_env.state.world import World
from tau_env.tasks.model import Task

__all__ = ["Episode"]


@dataclass
class Episode:
    """A finished episode, as graders see it.

    Attributes:
        task: The task that was played.
        trajectory: Every message of both sides, in order.
        world: The world at the end of the episode.
        termination: How the episode ended.
        expected_world_factory: Returns the world after the task's gold actions (cached per
            task by the domain, so calling it costs nothing after the first time).
    """

    task: Task
    trajectory: Sequence[Message]
    world: World
    termination: TerminationReason
    expected_world_factory: Callable[[], World]
    _expected_world: World | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def expected_world(self) -> World:
        """The DB check's target state (asked of the factory once per episode).

        Kept in a field rather than by `functools.cached_property`, whose look-up takes a
        lock on Python 3.11 (several times the cost of the factory's cached answer).
        """
        world = self._expected_world
        if world is None:
            world = self._expected_world = self.expected_world_factory()
        return world
