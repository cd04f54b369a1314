import pytest

import tau_env
from tau_env.actions import CallTool, SendMessage, Stop
from tau_env.baselines.random_agent import RandomAgent
from tau_env.episode_runner import run_episode
from tau_env.wrappers.users import GoldUser


def _actions(seed, steps=200):
    env = tau_env.make_env("mock")
    env.reset(seed=0, options={"task_id": "complete_task"})
    agent = RandomAgent(seed=seed)
    raw = env.unwrapped
    return [agent.act(raw.view("agent"), raw.context("agent")) for _ in range(steps)]


def test_random_agent__draws_schema_valid_calls_messages_and_stops():
    actions = _actions(seed=1)
    assert {type(a) for a in actions} == {CallTool, SendMessage, Stop}
    env = tau_env.make_env("mock")
    env.reset(seed=0)
    schemas = {
        t["function"]["name"]: t["function"]["parameters"]
        for t in env.unwrapped.context("agent").tools
    }
    for call in (a for a in actions if isinstance(a, CallTool)):
        schema = schemas[call.name]
        assert set(schema.get("required", [])) <= set(call.arguments) <= set(schema["properties"])
        for name, value in call.arguments.items():
            spec = schema["properties"][name]
            if "enum" in spec:
                assert value in spec["enum"]
            elif spec.get("type") == "string":
                assert isinstance(value, str)


def test_random_agent__is_reproducible_per_seed():
    assert _actions(seed=3) == _actions(seed=3)
    assert _actions(seed=3) != _actions(seed=4)


def test_random_agent__set_seed_restarts_the_stream():
    agent = RandomAgent(seed=0)
    env = tau_env.make_env("mock")
    env.reset(seed=0)
    view, context = env.unwrapped.view("agent"), env.unwrapped.context("agent")
    first = [agent.act(view, context) for _ in range(20)]
    agent.set_seed(0)
    assert [agent.act(view, context) for _ in range(20)] == first


def test_random_agent__plays_whole_episodes_to_an_end():
    env = tau_env.make_env("mock", max_steps=30)
    for seed in range(20):
        result = run_episode(
            env, lambda task, s=seed: RandomAgent(task, seed=s), GoldUser, seed=seed
        )
        assert result.grade.termination.value in {
            "user_stop",
            "agent_stop",
            "max_steps",
            "too_many_errors",
        }


def test_random_agent__rejects_probabilities_above_one():
    with pytest.raises(ValueError, match="must be in \\[0, 1\\]"):
        RandomAgent(tool_probability=0.9, stop_probability=0.2)
