"""`check_env`: the checks every tau_env environment must pass, runnable by any user.

It runs PettingZoo's own ``api_test`` and then the properties specific to tau_env: both sides
are present with identical space objects on every call, the greeting gives the user the first
turn, a tool call keeps the floor, an action that is not an action raises `InvalidAction`
without changing anything, a finished side accepts only ``None``, and the same seed with the
same actions gives the same episode.

Every check raises `AssertionError` explicitly (not with an ``assert`` statement), so the
checker still checks under ``python -O``. PettingZoo's ``api_test`` is its own code, built on
``assert`` statements: under ``-O`` only tau_env's checks below remain.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pettingzoo.test import api_test

from tau_env.actions import CallTool, SendMessage, Stop
from tau_env.errors import InvalidAction

__all__ = ["check_env"]


def check_env(make: Callable[[], Any], *, num_cycles: int = 200) -> None:
    """Raise AssertionError when the environment built by `make` breaks the contract.

    Args:
        make: Builds a fresh (wrapped or bare) tau_env AEC environment.
        num_cycles: Cycles of PettingZoo's random-action ``api_test``.
    """
    api_test(make(), num_cycles=num_cycles)
    _check_spaces(make())
    _check_invalid_action(make())
    _check_dead_side(make())
    _check_determinism(make)


def _expect(condition: bool, message: str) -> None:
    """Raise `AssertionError` with `message` unless `condition` holds (also under ``-O``)."""
    if not condition:
        raise AssertionError(message)


def _check_spaces(env: Any) -> None:
    env.reset(seed=0)
    _expect(
        set(env.possible_agents) == {"agent", "user"},
        f"possible_agents must be 'agent' and 'user', actually: {env.possible_agents}",
    )
    for side in env.possible_agents:
        _expect(
            env.observation_space(side) is env.observation_space(side),
            f"observation_space({side!r}) returns a new object on every call",
        )
        _expect(
            env.action_space(side) is env.action_space(side),
            f"action_space({side!r}) returns a new object on every call",
        )
        _expect(
            env.observation_space(side).contains(env.observe(side)),
            f"observe({side!r}) is not in observation_space({side!r})",
        )


def _check_invalid_action(env: Any) -> None:
    env.reset(seed=0)
    side = env.agent_selection
    before = len(env.unwrapped.conversation.trajectory)
    for bad in (42, "hello", {"kind": "dance"}):
        try:
            env.step(bad)
        except InvalidAction:
            pass
        else:
            raise AssertionError(f"step({bad!r}) was accepted")
    _expect(env.agent_selection == side, "an invalid action passed the turn to the other side")
    _expect(
        len(env.unwrapped.conversation.trajectory) == before,
        "an invalid action changed the trajectory",
    )


def _check_dead_side(env: Any) -> None:
    env.reset(seed=0)
    env.step(Stop())
    side = env.agent_selection
    _expect(
        env.terminations[side] or env.truncations[side],
        f"after a stop, {side!r} is neither terminated nor truncated",
    )
    try:
        env.step(SendMessage(content="still here?"))
    except ValueError:
        pass
    else:
        raise AssertionError("a finished side accepted an action other than None")


def _play(env: Any, seed: int) -> list[Any]:
    env.reset(seed=seed)
    script = [
        CallTool(name="__no_such_tool__", arguments={}),
        SendMessage(content="hello"),
        SendMessage(content="hi, how can I help?"),
        Stop(),
    ]
    record: list[Any] = []
    for action in script:
        if env.terminations.get(env.agent_selection) or env.truncations.get(env.agent_selection):
            break
        side = env.agent_selection
        env.step(action)
        record.append((side, env.observe(side), dict(env._cumulative_rewards)))
    record.append([m.model_dump() for m in env.unwrapped.conversation.trajectory])
    return record


def _check_determinism(make: Callable[[], Any]) -> None:
    first, second = _play(make(), 7), _play(make(), 7)
    _expect(first == second, "the same seed and actions gave different episodes")
