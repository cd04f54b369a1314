"""Issue 55 item 3: ``reset(seed=s)`` with no task named repeats the episode on every route.

Each route resets with a seed, then with other seeds, then with the first seed again: the task
and the first observation must be the same both times, and the seeds must not all draw one task
(the seed decides the task, as the Gymnasium view documents). The AEC env and the Gymnasium view
draw a task from a seed by the same rule, so on the same tasks they play the same episode.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

import tau_env
from tests.extras import require

SEEDS = (3, 11, 42, 7, 1000)

First = tuple[str, str]
"""The task played and the first observation, as JSON."""


def _json(value: Any) -> str:
    return json.dumps(value, default=repr, sort_keys=True)


def aec_route() -> Callable[[int], First]:
    env = tau_env.make_env("telecom", split="test_ood")

    def first(seed: int) -> First:
        env.reset(seed=seed)
        raw = env.unwrapped
        seen = {side: env.observe(side) for side in raw.possible_agents}
        return raw.task.id, _json([seen, raw.episode_seed, raw.context("user").instructions])

    return first


def gymnasium_route() -> Callable[[int], First]:
    import gymnasium

    env = gymnasium.make("tau_env/Telecom-v0", split="test_ood")

    def first(seed: int) -> First:
        observation, _ = env.reset(seed=seed)
        return env.unwrapped.task.id, _json(observation)

    return first


def chat_route() -> Callable[[int], First]:
    from tau_env.chat import make_chat_env

    chat = make_chat_env("telecom", split="test_ood")

    def first(seed: int) -> First:
        turn = chat.reset(seed=seed)
        return chat.single.task.id, _json(turn.messages)

    return first


def openenv_route() -> Callable[[int], First]:
    require("openenv", "openenv")
    from tau_env.integrations.openenv.server import TauOpenEnv

    env = TauOpenEnv("telecom", split="test_ood")

    def first(seed: int) -> First:
        observation = env.reset(seed=seed)
        return env.chat.single.task.id, _json(observation.messages)

    return first


ROUTES = {
    "aec": aec_route,
    "gymnasium": gymnasium_route,
    "chat": chat_route,
    "openenv": openenv_route,
}


@pytest.mark.parametrize("route", list(ROUTES))
def test_reset__the_same_seed_twice_plays_the_same_task_the_same_way(route):
    first = ROUTES[route]()
    played = [first(seed) for seed in SEEDS]
    assert first(SEEDS[0]) == played[0]
    assert [first(seed) for seed in SEEDS] == played  # in any order, each seed repeats
    assert len({task for task, _ in played}) > 1, "the seed must decide the task"


def test_reset__the_aec_env_draws_the_task_the_gymnasium_view_draws_for_a_seed():
    import gymnasium

    aec = tau_env.make_env("mock")
    view = gymnasium.make("tau_env/Mock-v0").unwrapped
    assert [task.id for task in view.tasks] == [task.id for task in aec.unwrapped.tasks]
    for seed in range(20):
        aec.reset(seed=seed)
        view.reset(seed=seed)
        assert view.task.id == aec.unwrapped.task.id
        assert view.aec.unwrapped.episode_seed == aec.unwrapped.episode_seed


def test_reset__a_named_task_keeps_the_episode_seed_of_the_seed():
    env = tau_env.make_env("mock").unwrapped
    env.reset(seed=5)
    drawn, episode_seed = env.task.id, env.episode_seed
    other = next(task.id for task in env.tasks if task.id != drawn)
    env.reset(seed=5, options={"task_id": other})
    assert (env.task.id, env.episode_seed) == (other, episode_seed)
