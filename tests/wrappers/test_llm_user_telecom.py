"""LLMUser plays telecom end to end over real HTTP; its device actions run on the phone."""

from __future__ import annotations

import re

import pytest

import tau_env
from tau_env.baselines.oracle import PlainTextOracleAgent
from tau_env.episode_runner import run_episode
from tau_env.llm import LLMClient, RetryPolicy
from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply
from tau_env.wrappers.users import LLMUser

FAST = RetryPolicy(max_retries=3, initial_delay=0.01, jitter=0.0)
STEP = re.compile(r"^- (\w+)\((.*)\)$", re.M)


def _value(text: str) -> object:
    if text in ("True", "False"):
        return text == "True"
    try:
        return int(text)
    except ValueError:
        return text


def _parse_call(arguments: str) -> dict[str, object]:
    pairs = [part.split("=", 1) for part in arguments.split(", ") if "=" in part]
    return {key: _value(value) for key, value in pairs}


def phone_owner(request):
    """A fake user model: performs each device step the agent lists, then reports or stops."""
    messages = request.body["messages"]
    asked_at = max((i for i, m in enumerate(messages) if m["role"] == "user"), default=0)
    agent_text = messages[asked_at].get("content") or ""
    if "How can I help" in agent_text:
        return FakeReply.text("My phone is not working properly, can you help?")
    if "TRANSFERRED" in agent_text:
        return FakeReply.text("###TRANSFER###")
    if "Everything you asked for is done" in agent_text:
        return FakeReply.text("It all works now, thanks! ###STOP###")
    steps = STEP.findall(agent_text)
    done = sum(1 for m in messages[asked_at:] if m["role"] == "tool")
    if done < len(steps):
        name, arguments = steps[done]
        return FakeReply.tool_call(name, _parse_call(arguments))
    return FakeReply.text("Done, I did all of that." if steps else "Okay.")


def _tasks_with_user_steps(domain, count: int) -> list[str]:
    chosen = [
        t.id for t in domain.split(None) if any(a.requestor == "user" for a in t.gold_actions)
    ]
    return chosen[:: max(1, len(chosen) // count)][:count]


@pytest.fixture(params=["built-in", "official"])
def source(request):
    return None if request.param == "built-in" else request.getfixturevalue("data_dir")


def test_llm_user__fixes_telecom_phones_over_http(source):
    env = tau_env.make_env("telecom", data_dir=source)
    domain = env.unwrapped.domain
    task_ids = _tasks_with_user_steps(domain, 6)
    assert len(task_ids) == 6
    with FakeOpenAIServer(phone_owner) as server:
        client = LLMClient(server.config(), retry=FAST)
        user = LLMUser.factory(client, domain, seed=7)
        for task_id in task_ids:
            result = run_episode(env, PlainTextOracleAgent, user, task_id=task_id, seed=0)
            assert result.reward == 1.0, (task_id, result.grade.failed_components())
            device_calls = [m for m in result.trajectory if m.role == "user" and m.tool_calls]
            results = [m for m in result.trajectory if m.role == "tool" and m.requestor == "user"]
            assert device_calls and len(results) == len(device_calls)
            assert not any(r.error for r in results), task_id
        tools_offered = server.requests[0].tool_names
    assert "toggle_airplane_mode" in tools_offered and "check_status_bar" in tools_offered
    assert "get_customer_by_phone" not in tools_offered  # the user never sees agent tools
