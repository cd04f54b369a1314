"""GRPO groups share one seed or get one each; the next group of a task gets a new seed."""

from __future__ import annotations

import pytest

from tau_env.integrations.trl.seeds import SeedSchedule
from tau_env.rollout_seeds import episode_seed


def test_shared__a_group_is_consecutive_copies_and_each_group_gets_the_next_seed():
    schedule = SeedSchedule("shared")
    rows = ["a", "a", "b", "b", "a", "a"]
    seeds = [schedule.next(task, 0) for task in rows]
    assert (
        seeds
        == [episode_seed(0, "a", 0)] * 2
        + [episode_seed(0, "b", 0)] * 2
        + [episode_seed(0, "a", 1)] * 2
    )


def test_shared__group_size_cuts_a_run_of_the_same_task():
    schedule = SeedSchedule("shared", group_size=2)
    seeds = [schedule.next("a", 4) for _ in range(4)]
    assert seeds == [episode_seed(4, "a", 0)] * 2 + [episode_seed(4, "a", 1)] * 2


def test_distinct_and_fixed():
    distinct = SeedSchedule("distinct")
    assert [distinct.next("a", 1) for _ in range(3)] == [episode_seed(1, "a", k) for k in range(3)]
    fixed = SeedSchedule("fixed")
    assert [fixed.next("a", 9), fixed.next("b", None)] == [9, 0]


def test_schedule__same_order_same_seeds():
    order = ["a", "a", "c", "c", "b", "b", "a", "a"]
    first, second = SeedSchedule(), SeedSchedule()
    assert [first.next(t, 2) for t in order] == [second.next(t, 2) for t in order]


def test_schedule__bad_arguments_are_refused():
    with pytest.raises(ValueError, match="group_seeds"):
        SeedSchedule("per-row")
    with pytest.raises(ValueError, match="group_size"):
        SeedSchedule("shared", group_size=0)


def test_environment_factory__group_seeds_reach_the_episode(trl):
    from tau_env.integrations.trl import environment_factory
    from tests.integrations.trl.conftest import transfer_tasks

    task_id = transfer_tasks(1)[0]
    for mode, distinct in (("shared", 1), ("distinct", 4)):
        cls = environment_factory("telecom", group_seeds=mode)
        envs = [cls() for _ in range(4)]
        for env in envs:
            env.reset(task_id=task_id, seed=0)
        seeds = [env.seed for env in envs]
        assert len(set(seeds)) == distinct, mode
        assert [env.chat.single.aec.unwrapped.episode_seed for env in envs] == [
            _env_seed(s) for s in seeds
        ]


def _env_seed(seed: int) -> int:
    """The episode seed a TauEnv draws for a reset seed (what reached the env).

    Drawn by a fresh env of another domain: the episode seed depends on the seed alone.
    """
    import tau_env

    env = tau_env.make_env("mock").unwrapped
    env.reset(seed=seed)
    return int(env.episode_seed)
