import asyncio

import pytest

import tau_env
from tau_env.baselines.oracle import OracleAgent, PlainTextOracleAgent
from tau_env.episode_runner import run_episode
from tau_env.errors import InfrastructureError
from tau_env.llm import LLMClient, RetryPolicy
from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply
from tau_env.wrappers.users import BUILTIN_GUIDELINES, LLMUser, guidelines_for
from tau_env.wrappers.users.llm_user import EMPTY_RETRIES

FAST = RetryPolicy(max_retries=3, initial_delay=0.01, jitter=0.0)


def customer(request):
    """A fake user model for mock's complete_and_dismiss: reads the (role-flipped) chat."""
    last = request.last_message
    if last["role"] == "tool":
        return FakeReply.text("I did it, the notification is dismissed.")
    text = last.get("content") or ""
    if "How can I help" in text:
        return FakeReply.text("My quarterly report (task_1) is done, please close it.")
    if "dismiss_notification" in text:
        return FakeReply.tool_call("dismiss_notification", {"notification_id": "notif_1"})
    if "Everything you asked for is done" in text:
        return FakeReply.text("Great, thank you! ###STOP###")
    return FakeReply.text("Okay.")


def play(server, agent=PlainTextOracleAgent, task_id="complete_and_dismiss", source=None):
    env = tau_env.make_env("mock", data_dir=source)
    client = LLMClient(server.config(), retry=FAST)
    user = LLMUser.factory(client, env.unwrapped.domain, seed=42)
    return run_episode(env, agent, user, task_id=task_id, seed=0)


@pytest.mark.parametrize("agent", [OracleAgent, PlainTextOracleAgent])
def test_llm_user__completes_a_task_end_to_end_over_http_with_its_tool_calls_executed(agent):
    with FakeOpenAIServer(customer) as server:
        result = play(server, agent)
        requests = server.requests
    assert result.reward == 1.0
    assert result.grade.termination.value == "user_stop"
    user_call, user_result = [
        m
        for m in result.trajectory
        if getattr(m, "requestor", None) == "user" or (m.role == "user" and m.tool_calls)
    ][:2]
    assert user_call.tool_calls[0].name == "dismiss_notification"
    assert user_result.content == "Notification notif_1 dismissed" and not user_result.error
    first = requests[0].body
    assert first["messages"][0]["role"] == "system"
    assert first["messages"][0]["content"].startswith(BUILTIN_GUIDELINES.with_tools)
    assert "<scenario>" in first["messages"][0]["content"]
    assert first["messages"][1] == {"role": "user", "content": "Hi! How can I help you today?"}
    assert requests[0].tool_names == ["check_notifications", "dismiss_notification"]
    assert first["seed"] == 42


def test_llm_user__history_is_role_flipped():
    with FakeOpenAIServer(customer) as server:
        play(server)
        last = server.requests[-1].body["messages"]
    roles = [m["role"] for m in last]
    assert roles[:3] == ["system", "user", "assistant"]  # greeting, then the user's opening
    assert last[2]["content"].startswith("My quarterly report")
    assert any(m["role"] == "assistant" and m.get("tool_calls") for m in last)
    assert any(m["role"] == "tool" for m in last)


def test_llm_user__uses_the_official_guidelines_with_official_data(data_dir):
    domain = tau_env.load_domain("mock", data_dir)
    official = guidelines_for(domain)
    assert official.source != "tau_env"
    with FakeOpenAIServer(customer) as server:
        play(server, OracleAgent, task_id="update_task_with_user_tools", source=data_dir)
        system = server.requests[0].body["messages"][0]["content"]
    assert system.startswith(official.with_tools)
    assert system != BUILTIN_GUIDELINES.with_tools


def test_transient_429__is_retried_inside_the_episode():
    calls = {"n": 0}

    def flaky(request):
        calls["n"] += 1
        return FakeReply.error(429) if calls["n"] == 2 else customer(request)

    with FakeOpenAIServer(flaky) as server:
        result = play(server)
        numbers = len(server.requests)
    assert result.reward == 1.0
    assert numbers == calls["n"] and calls["n"] >= 5


def test_malformed_tool_call__becomes_a_user_side_tool_error_not_a_crash():
    state = {"broken": True}

    def clumsy(request):
        last = request.last_message
        if "dismiss_notification" in (last.get("content") or "") and state["broken"]:
            state["broken"] = False
            return FakeReply.malformed_tool_call("dismiss_notification", '{"notification_id": ')
        if last["role"] == "tool" and "not valid JSON" in last["content"]:
            return FakeReply.tool_call("dismiss_notification", {"notification_id": "notif_1"})
        return customer(request)

    with FakeOpenAIServer(clumsy) as server:
        result = play(server)
        retried = server.requests[-1].body["messages"]
    errors = [
        m for m in result.trajectory if m.role == "tool" and m.requestor == "user" and m.error
    ]
    assert len(errors) == 1 and "not valid JSON" in errors[0].content
    assert result.reward == 1.0  # the model saw the error and made the call again
    assert any(m["role"] == "tool" and "not valid JSON" in m["content"] for m in retried)
    malformed_echo = [
        m
        for m in retried
        if m.get("tool_calls")
        and m["tool_calls"][0]["function"]["arguments"] == '{"notification_id": '
    ]
    assert malformed_echo  # the model's own malformed call is sent back verbatim


def test_empty_reply__is_asked_again_then_an_infrastructure_error():
    # Issue 41 (it was the user's error, scored 0): an empty reply is the provider's failure.
    env = tau_env.make_env("mock")
    env.reset(seed=0, options={"task_id": "create_task"})
    raw = env.unwrapped
    with FakeOpenAIServer([FakeReply.empty()] * (EMPTY_RETRIES + 1)) as server:
        user = LLMUser(raw.task, LLMClient(server.config(), retry=FAST), seed=5)
        with pytest.raises(InfrastructureError, match="replied empty 3 times"):
            user.act(raw.view("user"), raw.context("user"))
        seeds = [request.body["seed"] for request in server.requests]
    assert seeds == [5, 6, 7] and user.empty_replies == 3
    with FakeOpenAIServer([FakeReply.empty(), FakeReply.text("Hello.")]) as server:
        user = LLMUser(raw.task, LLMClient(server.config(), retry=FAST), seed=5)
        action = user.act(raw.view("user"), raw.context("user"))
    assert action.content == "Hello." and user.empty_replies == 1


def test_aact__awaits_the_model_and_queues_several_tool_calls():
    env = tau_env.make_env("mock")
    env.reset(seed=0, options={"task_id": "complete_and_dismiss"})
    raw = env.unwrapped
    reply = FakeReply.tool_calls_of(
        ("check_notifications", {}), ("dismiss_notification", {"notification_id": "notif_1"})
    )
    with FakeOpenAIServer([reply]) as server:
        user = LLMUser(raw.task, LLMClient(server.config(), retry=FAST))
        first = asyncio.run(user.aact(raw.view("user"), raw.context("user")))
        second = asyncio.run(user.aact(raw.view("user"), raw.context("user")))
        assert len(server.requests) == 1
    assert (first.name, second.name) == ("check_notifications", "dismiss_notification")
    assert user.responses[0].usage.total_tokens > 0


def test_llm_user__rejects_a_client_that_is_not_an_llm_client():
    task = tau_env.load_domain("mock").task("create_task")
    with pytest.raises(TypeError, match="LLMClient"):
        LLMUser(task, "gpt-4")
