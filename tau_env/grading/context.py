"""What a grader looks at: the task, the conversation, the final world, the expected world."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from tau_env.grading.outcome import TerminationReason
from tau_env.messages import Message
from tau_env.state.world import World
from tau_env.tasks.model import Task

__all__ = ["Episode", "TaskBaseline"]


@dataclass(frozen=True)
class TaskBaseline:
    """The task's checks on its starting world, before anyone acts.

    Attributes:
        changes_world: The gold plan changes the databases (the DB check is an item).
        assertions_at_start: Per env assertion, in order: it already holds at the start.
        failing_gold: Per gold action, in order: the env answers it with an error when the
            gold plan is replayed (the strict ACTION check then matches a failed call).
    """

    changes_world: bool
    assertions_at_start: tuple[bool, ...] = ()
    failing_gold: tuple[bool, ...] = ()


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
        baseline_factory: Returns what the task's checks say of its untouched starting world
            (cached per task by the domain); None when unknown (every check is then an item
            of partial credit).
    """

    task: Task
    trajectory: Sequence[Message]
    world: World
    termination: TerminationReason
    expected_world_factory: Callable[[], World]
    baseline_factory: Callable[[], TaskBaseline] | None = None
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

    @property
    def baseline(self) -> TaskBaseline | None:
        """The task's baseline (`baseline_factory`'s answer), None when unknown."""
        factory = self.baseline_factory
        return None if factory is None else factory()
