"""What a task's checks already say of its untouched starting world (and of its gold plan).

Partial credit counts only what an agent can fail by doing nothing (issue 53): the database
is an item only when the gold plan changes it, and an env assertion only when it does not
already hold at the start; otherwise each is a constraint, which takes credit away when the
agent breaks it but gives none for keeping it. The domain works this out once per task
(`tau_env.domain.Domain.baseline`) and graders read it from the episode.
"""

from __future__ import annotations

from tau_env.grading.context import TaskBaseline
from tau_env.grading.env_assertions import run_assertions
from tau_env.grading.expected import failing_gold_actions
from tau_env.state.world import World
from tau_env.tasks.model import Task

__all__ = ["TaskBaseline", "baseline_of"]


def baseline_of(
    task: Task, initial: World, expected: World, failing: tuple[bool, ...] | None = None
) -> TaskBaseline:
    """The baseline of `task` from its starting world and the world after its gold plan.

    The assertions run on a fork of `initial` (which is shared and never changed). `failing`
    is `failing_gold_actions` when already known (the seed-0 replay that made `expected`
    gives it); None: the gold plan is replayed for it.
    """
    criteria = task.evaluation_criteria
    assertions = (criteria.env_assertions if criteria else None) or []
    held = (
        tuple(detail["met"] for detail in run_assertions(initial.fork(), assertions))
        if assertions
        else ()  # (no world to fork for no assertions)
    )
    if failing is None:
        failing = failing_gold_actions(initial, task.gold_actions)
    return TaskBaseline(bool(initial.differences(expected)), held, failing)
