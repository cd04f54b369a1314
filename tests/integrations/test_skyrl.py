from __future__ import annotations

import pytest

from tau_env.baselines.oracle import PlainTextOracleAgent
from tau_env.chat import action_message
from tau_env.episode_runner import run_episode
from tau_env.wrappers.users import ScriptedUser
from tests.extras import require

require("skyrl_gym", "skyrl")


def as_raw_text(message: dict) -> str:
    """How a Qwen-style model writes a turn: text, or <tool_call> JSON blocks."""
    import json

    if message.get("tool_calls"):
        call = message["tool_calls"][0]["function"]
        body = {"name": call["name"], "arguments": json.loads(call["arguments"])}
        return f"<tool_call>\n{json.dumps(body)}\n</tool_call>"
    return message["content"]


@pytest.mark.parametrize("index", [0, 5])
def test_skyrl__whole_episode_from_raw_text_equals_run_episode(index):
    import skyrl_gym

    import tau_env.integrations.skyrl  # registers tau_env/<domain>

    task = tau_env.make_env("telecom").unwrapped.tasks[index]
    env = skyrl_gym.make("tau_env/telecom", env_config={}, extras={"task_id": task.id, "seed": 3})
    prompt, metadata = env.init([{"role": "user", "content": "ignored"}])
    assert prompt[0]["role"] == "system" and "<tools>" in prompt[0]["content"]
    assert "task_id" not in metadata and env.chat.task_id == task.id  # issue 53
    agent = PlainTextOracleAgent(task)
    output = None
    steps = 0
    while output is None or not output["done"]:
        output = env.step(as_raw_text(action_message(agent.act(None, None))))
        steps += 1
        assert steps < 50
    direct_env = tau_env.make_env("telecom")
    domain = direct_env.unwrapped.domain
    direct = run_episode(
        direct_env, PlainTextOracleAgent, ScriptedUser.factory(domain), task_id=task.id, seed=3
    )
    assert output["reward"] == direct.reward == 1.0
    assert output["metadata"]["grade"] == direct.grade.model_dump(mode="json")


def test_skyrl__tool_results_come_back_as_messages_and_turn_limit_ends():
    from tau_env.integrations.skyrl import TauTextEnv

    env = TauTextEnv({"domain": "telecom"}, {"max_turns": 2, "seed": 0})
    env.init([])
    out = env.step('{"name": "get_customer_by_id", "arguments": {"customer_id": "nobody"}}')
    assert out["observations"][0]["role"] == "tool"
    assert out["observations"][0]["content"].startswith("Error:")
    assert not out["done"]
    out = env.step("Could you tell me your phone number?")
    assert out["done"] and out["reward"] == 0.0 and out["metadata"]["finished"] is False


def test_skyrl__needs_a_domain():
    from tau_env.integrations.skyrl import TauTextEnv

    with pytest.raises(ValueError, match="domain"):
        TauTextEnv({}, {})
