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


# -- several processes ------------------------------------------------------------------------
# TRL deals a generation batch out in slices, one per process (rank 0 first), each slice a run
# of consecutive rollouts: a GRPO group of 4 copies with slices of 2 spans both ranks
# ("split"); with slices of 4 a task's groups land on either rank, and return to the other one
# ("returning"). Each layout lists, per generation batch, the task of every rollout.
LAYOUTS = {
    "split": [["a"] * 4, ["b"] * 4, ["a"] * 4, ["b"] * 4],
    "returning": [["a"] * 4 + ["b"] * 4, ["b"] * 4 + ["a"] * 4],
}
GROUP = 4


def _slices(batch: list[str], world: int) -> list[list[str]]:
    size = len(batch) // world
    return [batch[rank * size : (rank + 1) * size] for rank in range(world)]


def _groups(batches: list[list[str]]) -> list[list[int]]:
    """Positions (in the whole stream) of each GRPO group: consecutive runs of GROUP."""
    total = sum(len(batch) for batch in batches)
    return [list(range(start, start + GROUP)) for start in range(0, total, GROUP)]


def _check_seeds(mode: str, batches: list[list[str]], seeds: list[int]) -> None:
    """Distinct: every rollout its own seed; shared: one seed per group, never reused."""
    if mode == "distinct":
        assert len(set(seeds)) == len(seeds)
        return
    per_group = [{seeds[i] for i in group} for group in _groups(batches)]
    assert all(len(group) == 1 for group in per_group), per_group
    assert len(set().union(*per_group)) == len(per_group)  # no group reuses another's seed


@pytest.fixture(scope="module")
def mock_rollout(trl):
    """A rollout function factory on mock whose model says goodbye at once, and its tokenizer."""
    from tau_env.integrations.trl import make_rollout_func
    from tau_env.testing.tiny_lm import tiny_tokenizer

    tokenizer = tiny_tokenizer(["mock tasks"], vocab_size=300)
    stop = [*tokenizer.encode("Goodbye. ###STOP###", add_special_tokens=False)]
    stop.append(tokenizer.eos_token_id)

    def new(mode: str):
        generate = lambda trainer, ids: (stop, [0.0] * len(stop))  # noqa: E731
        return make_rollout_func("mock", generate=generate, group_seeds=mode)

    return new, tokenizer


def _trainer(tokenizer, rank: int, world: int):
    from types import SimpleNamespace

    return SimpleNamespace(
        processing_class=tokenizer,
        max_completion_length=1 << 20,
        num_generations=GROUP,
        accelerator=SimpleNamespace(process_index=rank, num_processes=world),
    )


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("mode", ["shared", "distinct"])
def test_rollout_func__two_ranks_play_the_seeds_one_process_plays(
    mode, layout, mock_rollout, monkeypatch
):
    from tau_env.integrations.trl import ROLLOUT_KEY
    from tau_env.integrations.trl import seeds as seeds_module

    new, tokenizer = mock_rollout
    ids = {"a": "complete_task", "b": "create_task"}
    batches = [[ids[t] for t in batch] for batch in LAYOUTS[layout]]
    ranks = [new(mode), new(mode)]  # one rollout function per process
    alone = new(mode)  # one process playing every batch whole
    two, one = [], []
    for batch in batches:
        slices = _slices(batch, 2)
        monkeypatch.setattr(seeds_module, "gather_tasks", lambda mine, s=slices: s, raising=False)
        for rank, rollout in enumerate(ranks):
            prompts = [[{"role": "user", "content": ROLLOUT_KEY + t}] for t in slices[rank]]
            out = rollout(prompts, _trainer(tokenizer, rank, 2))
            assert out["tau_task_id"] == slices[rank]
            two += out["tau_seed"]
        prompts = [[{"role": "user", "content": ROLLOUT_KEY + t}] for t in batch]
        one += alone(prompts, _trainer(tokenizer, 0, 1))["tau_seed"]
    assert two == one
    _check_seeds(mode, batches, two)


@pytest.mark.parametrize("mode", ["shared", "distinct"])
def test_environment_factory__two_ranks_never_share_a_seed(mode, trl, monkeypatch):
    """Groups that stay on one process ("returning"): one seed per group, none reused."""
    from tau_env.integrations.trl import environment_factory
    from tau_env.integrations.trl import seeds as seeds_module

    batches = LAYOUTS["returning"]
    ids = {"a": "complete_task", "b": "create_task"}
    classes = [environment_factory("mock", group_seeds=mode, group_size=GROUP) for _ in range(2)]
    ranks = [[cls() for _ in range(GROUP)] for cls in classes]  # one class per process
    seeds = []
    for batch in batches:
        for rank, envs in enumerate(ranks):  # one class per process: it reads its rank
            monkeypatch.setattr(
                seeds_module, "current_process", lambda r=rank: (r, 2), raising=False
            )
            for env, task in zip(envs, _slices(batch, 2)[rank], strict=True):
                env.reset(task_id=ids[task], seed=0)
                seeds.append(env.seed)
    _check_seeds(mode, batches, seeds)


def test_environment_factory__a_group_split_over_processes_is_warned_about(trl, monkeypatch):
    from tau_env.integrations.trl import environment_factory
    from tau_env.integrations.trl import seeds as seeds_module

    monkeypatch.setattr(seeds_module, "current_process", lambda: (0, 2), raising=False)
    cls = environment_factory("mock", group_seeds="shared", group_size=GROUP)
    env = cls()
    for task in ["complete_task"] * 2:  # this process's half of a group of 4
        env.reset(task_id=task, seed=0)
    with pytest.warns(UserWarning, match="had 2 of its 4 rollouts in this process"):
        env.reset(task_id="create_task", seed=0)
