"""The expected world of a task: its starting world after the gold actions."""

from __future__ import annotations

from collections.abc import Sequence

from tau_env.messages import side_of
from tau_env.state.world import World
from tau_env.tasks.model import GoldAction

__all__ = ["failing_gold_actions", "replay_gold_actions", "replayed_with_failures"]


def replay_gold_actions(initial: World, actions: Sequence[GoldAction], seed: int = 0) -> World:
    """Apply gold actions to a fork of `initial` and return the result.

    Each action runs through the same path as a live call, including the domain's sync rule
    (the reference skips sync between gold actions, which makes its telecom DB targets differ
    from any live run). Failing gold calls leave no change, as in a live run.

    Args:
        initial: The task's starting world (not modified).
        actions: The gold actions, in order.
        seed: Seeds the replay's random generator: ids a tool invents (telecom bills) are the
            ones a live episode with the same seed invents, so the DB diagnostic compares
            like with like and is the same every time.
    """
    return _replayed(initial, actions, seed)[0]


def failing_gold_actions(initial: World, actions: Sequence[GoldAction]) -> tuple[bool, ...]:
    """Per gold action, in order: the env answers it with an error when the plan is replayed.

    Some official gold plans try a call that fails (an e-mail that is not on file, an
    exchange of an order that is not delivered): the strict ACTION check matches such a
    step with a call that fails the same way.
    """
    return _replayed(initial, actions, 0)[1]


def replayed_with_failures(
    initial: World, actions: Sequence[GoldAction]
) -> tuple[World, tuple[bool, ...]]:
    """`replay_gold_actions` with seed 0 and `failing_gold_actions`, from one replay."""
    return _replayed(initial, actions, 0)


def _replayed(
    initial: World, actions: Sequence[GoldAction], seed: int
) -> tuple[World, tuple[bool, ...]]:
    world = initial.fork(seed)
    failed = [
        world.call_tool(side_of(action.requestor), action.name, action.arguments).error
        for action in actions
    ]
    return world, tuple(failed)
