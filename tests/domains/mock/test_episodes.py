"""Whole episodes on the mock domain: gold replays, determinism, and a shared base never mutated."""

import pytest

import tau_env
from tau_env.baselines.oracle import OracleAgent
from tau_env.episode_runner import run_episode
from tau_env.wrappers.users import GoldUser


@pytest.fixture(params=["built-in", "official"])
def domain_source(request):
    return None if request.param == "built-in" else request.getfixturevalue("data_dir")


def test_gold_replay__is_deterministic_for_a_seed(domain_source):
    env = tau_env.make_env("mock", data_dir=domain_source)
    for task in env.unwrapped.tasks:
        first = run_episode(env, OracleAgent, GoldUser, task_id=task.id, seed=5)
        second = run_episode(env, OracleAgent, GoldUser, task_id=task.id, seed=5)
        assert [m.model_dump() for m in first.trajectory] == [
            m.model_dump() for m in second.trajectory
        ]
        assert first.grade == second.grade


def test_episodes__never_modify_the_shared_base(domain_source):
    domain = tau_env.load_domain("mock", domain_source)
    before = (domain.data.agent_snapshot.fingerprint(), domain.data.user_snapshot.fingerprint())
    env = tau_env.make_env("mock", data_dir=domain_source)
    for task in env.unwrapped.tasks:
        run_episode(env, OracleAgent, GoldUser, task_id=task.id, seed=1)
    after = (domain.data.agent_snapshot.fingerprint(), domain.data.user_snapshot.fingerprint())
    assert after == before


def test_oracle__requests_user_steps_with_a_structured_request():
    env = tau_env.make_env("mock")
    result = run_episode(env, OracleAgent, GoldUser, task_id="complete_and_dismiss", seed=0)
    assert result.reward == 1.0
    requests = [m for m in result.trajectory if getattr(m, "request", None)]
    assert requests[0].request.tool_calls[0].name == "dismiss_notification"
    user_calls = [
        c.name for m in result.trajectory if m.role == "user" and m.tool_calls for c in m.tool_calls
    ]
    assert user_calls == ["dismiss_notification"]


def test_transfer__ends_with_the_users_transfer_token():
    result = run_episode(
        tau_env.make_env("mock"), OracleAgent, GoldUser, task_id="delete_refused", seed=0
    )
    assert result.trajectory[-1].content == "###TRANSFER###"
    assert result.grade.breakdown == {"DB": 1.0, "ACTION": 1.0}
