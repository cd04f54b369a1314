"""Fuzzing both sides of every domain with valid and hostile actions (issue 9, item 1).

Invariants after every step: no exception escapes ``step``; a failed tool call leaves the world
unchanged; PettingZoo's dictionaries cover exactly the live agents; observations lie in their
spaces; and every episode ends (by truncation at ``max_steps`` at the latest).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tau_env
from tau_env.actions import CallTool
from tau_env.domain import load_domain, registered_domains
from tests.conftest import official_data_dir
from tests.reliability.strategies import action_for

MAX_STEPS = 24


def _sources() -> list[tuple[str, str | None]]:
    data = official_data_dir()
    sources: list[tuple[str, str | None]] = [(name, None) for name in registered_domains()]
    if data is not None:
        sources += [
            (name, str(data)) for name in registered_domains() if (data / "domains" / name).is_dir()
        ]
    return sources


def _check_invariants(env) -> None:
    live = set(env.agents)
    for table in (
        env.rewards,
        env._cumulative_rewards,
        env.terminations,
        env.truncations,
        env.infos,
    ):
        assert set(table) == live
    for side in env.agents:
        assert env.observation_space(side).contains(env.observe(side))
    if live:
        ended = {env.terminations[a] or env.truncations[a] for a in live}
        assert len(ended) == 1, "both sides end together"


@pytest.mark.parametrize(
    ("domain_name", "data_dir"), _sources(), ids=lambda v: str(v).split("/")[-1]
)
def test_fuzzed_episodes_keep_every_invariant(domain_name, data_dir):
    domain = load_domain(domain_name, data_dir)
    env = tau_env.make_env(
        domain_name, data_dir=data_dir, max_steps=MAX_STEPS, max_errors=1000
    ).unwrapped
    task_ids = [task.id for task in env.tasks]

    @settings(
        max_examples=25,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(data=st.data(), task_id=st.sampled_from(task_ids), seed=st.integers(0, 2**16))
    def play(data, task_id, seed):
        env.reset(seed=seed, options={"task_id": task_id})
        for _ in range(MAX_STEPS + 5):
            if not env.agents:
                break
            side = env.agent_selection
            if env.terminations[side] or env.truncations[side]:
                env.step(None)
                _check_invariants(env)
                continue
            action = data.draw(action_for(domain, side), label=f"{side} action")
            world = env.conversation.world
            before = world.fork()
            errors_before = env.conversation.num_errors
            env.step(action)
            failed = env.conversation.num_errors > errors_before
            if failed:
                assert world.differences(before) == [], f"failed {action!r} changed the world"
            elif isinstance(action, CallTool) and env.conversation.trajectory[-1].error:
                raise AssertionError("an error result was not counted")
            _check_invariants(env)
        assert not env.agents, "the episode did not end within max_steps"

    play()
