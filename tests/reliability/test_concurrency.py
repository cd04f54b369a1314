"""Episodes share no mutable state: interleaved and threaded runs end where sequential ones do."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

import tau_env
from tau_env.baselines.oracle import OracleAgent
from tau_env.domain import load_domain
from tau_env.episode_runner import live_turns, run_episode
from tau_env.state import World
from tau_env.wrappers.users import GoldUser
from tests.conftest import domain_sources, source_id

MAX_TASKS = 24


def _fingerprints(domain_name: str, data_dir: str | None) -> tuple[str, ...]:
    """Fingerprints of the shared base; with equal overlays, equal bases mean equal worlds."""
    data = load_domain(domain_name, data_dir).data
    snapshots = [data.agent_snapshot, data.user_snapshot]
    return tuple(s.fingerprint() for s in snapshots if s is not None)


def _final_world(domain_name: str, data_dir: str | None, task_id: str) -> World:
    env = tau_env.make_env(domain_name, data_dir=data_dir)
    run_episode(env, OracleAgent, GoldUser.factory(env.unwrapped.domain), task_id=task_id, seed=3)
    return env.unwrapped.conversation.world


def _stepwise(domain_name: str, data_dir: str | None, task_id: str) -> Iterator[World]:
    """Play a gold episode one step per iteration; the last value is the final world."""
    raw = tau_env.make_env(domain_name, data_dir=data_dir).unwrapped
    raw.reset(seed=3, options={"task_id": task_id})
    players = {"agent": OracleAgent(raw.task), "user": GoldUser(raw.task, raw.domain)}
    for side in live_turns(raw):
        raw.step(players[side].act(raw.view(side), raw.context(side)))
        yield raw.conversation.world


@pytest.fixture(params=domain_sources(), ids=source_id)
def source(request):
    return request.param


def test_interleaved_episodes_end_like_sequential_ones(source):
    domain_name, data_dir = source
    task_ids = [t.id for t in load_domain(domain_name, data_dir).split(None)][:MAX_TASKS]
    base = _fingerprints(domain_name, data_dir)
    expected = {task_id: _final_world(domain_name, data_dir, task_id) for task_id in task_ids}
    for first, second in zip(task_ids, task_ids[1:] + task_ids[:1], strict=True):
        runs = {
            first: _stepwise(domain_name, data_dir, first),
            second: _stepwise(domain_name, data_dir, f"{second}"),
        }
        finals = {}
        for task_id, world in _round_robin(runs):
            finals[task_id] = world
        for task_id, world in finals.items():
            assert world.differences(expected[task_id]) == [], f"{task_id} with {first}/{second}"
    assert _fingerprints(domain_name, data_dir) == base, "an episode modified the shared base"


def _round_robin(runs: dict[str, Iterator[World]]) -> Iterator[tuple[str, World]]:
    active = dict(runs)
    while active:
        for task_id, run in list(active.items()):
            world = next(run, None)
            if world is None:
                del active[task_id]
            else:
                yield task_id, world


def test_threaded_episodes_end_like_sequential_ones(source):
    domain_name, data_dir = source
    task_ids = [t.id for t in load_domain(domain_name, data_dir).split(None)][:MAX_TASKS]
    base = _fingerprints(domain_name, data_dir)
    expected = {task_id: _final_world(domain_name, data_dir, task_id) for task_id in task_ids}
    jobs = list(itertools.chain.from_iterable(itertools.repeat(task_ids, 3)))
    with ThreadPoolExecutor(max_workers=4) as pool:
        finals = list(pool.map(lambda t: (t, _final_world(domain_name, data_dir, t)), jobs))
    for task_id, world in finals:
        assert world.differences(expected[task_id]) == [], task_id
    assert _fingerprints(domain_name, data_dir) == base, "an episode modified the shared base"
