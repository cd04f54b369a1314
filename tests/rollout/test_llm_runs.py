"""Runs with model-backed participants against the fake OpenAI-compatible server."""

import pytest

from tau_env.rollout import ParticipantSpec, RunConfig, create_run, run, run_report
from tau_env.rollout_seeds import episode_seed
from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply


@pytest.fixture(autouse=True)
def _api_key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake")  # the SDK wants one; the fake ignores it


def agent_script(request):
    """A model that looks users up twice in one reply, then answers in text."""
    if request.last_message.get("role") == "tool":
        return FakeReply.text("I have checked your account; everything is in order.")
    return FakeReply.tool_calls_of(("get_users", {}), ("get_users", {}))


def two_sided_script(request):
    """Agent requests (offered agent tools) as `agent_script`; the user opens, then stops."""
    if "get_users" in request.tool_names:
        return agent_script(request)
    spoken = sum(1 for m in request.messages if m["role"] == "assistant")
    return FakeReply.text("Hello, please check my tasks." if spoken == 0 else "Thanks! ###STOP###")


def llm_config(server, run_id="llm", *, user="gold", tasks=("create_task", "complete_task")):
    spec = ParticipantSpec(
        kind="llm", model=server.model(), api_base=server.base_url, temperature=0.5
    )
    return RunConfig(
        run_id=run_id,
        domain="mock",
        task_ids=tasks,
        trials=2,
        agent=spec,
        user=ParticipantSpec(kind=user) if user != "llm" else spec,
    )


def test_llm_agent__feeds_several_tool_calls_one_per_step_and_records_usage(store):
    with FakeOpenAIServer(agent_script) as server:
        config = llm_config(server)
        create_run(store, config)
        summary = run(store, config)
        requests = server.requests
    assert (summary.finished, summary.failed) == (4, 0)
    assert len(requests) == 8  # two model calls per episode: one per reply, not per action
    episode = next(e for e in store.episodes("llm") if (e.task_id, e.trial) == ("create_task", 1))
    roles = [(m["role"], bool(m.get("tool_calls"))) for m in episode.trajectory]
    assert roles == [
        ("assistant", False),  # greeting
        ("user", False),
        ("assistant", True),
        ("tool", False),
        ("assistant", True),  # the reply's second call, on the agent's next step
        ("tool", False),
        ("assistant", False),
        ("user", False),  # the gold user stops: the agent asked for nothing
    ]
    assert episode.termination == "user_stop"
    agent = episode.agent
    assert (agent.implementation, agent.model, agent.temperature) == ("llm", "openai/fake", 0.5)
    assert agent.seed == episode.seed == episode_seed(300, "create_task", 1)
    assert agent.usage.calls == 2 and agent.usage.prompt_tokens > 0
    assert agent.usage.completion_tokens > 0 and agent.usage.cost is None  # unpriced model
    seeds = {r.body["seed"] for r in requests}
    assert seeds == {
        episode_seed(300, t, k) for t in ("create_task", "complete_task") for k in (0, 1)
    }
    second = next(r for r in requests if r.last_message.get("role") == "tool")
    assert [m["role"] for m in second.messages][:2] == ["system", "assistant"]
    assert "<policy>" in second.messages[0]["content"]
    report = run_report(store, "llm")
    assert report.agent_usage.calls == 8 and report.agent_usage.cost is None


def test_llm_agent_and_llm_user__complete_run_with_usage_recorded(store):
    with FakeOpenAIServer(two_sided_script) as server:
        config = llm_config(server, user="llm")
        create_run(store, config)
        summary = run(store, config)
        requests = server.requests
    assert (summary.finished, summary.failed, summary.complete) == (4, 0, True)
    report = run_report(store, "llm")
    assert sorted(report.terminations) == ["user_stop"]
    assert report.agent_usage.calls == 8 and report.user_usage.calls == 8
    assert report.user_usage.prompt_tokens > 0 and report.user_usage.completion_tokens > 0
    assert len(requests) == 16
    for episode in store.episodes("llm"):
        assert episode.user.implementation == "llm" and episode.user.model == "openai/fake"
        assert episode.user.seed == episode.seed and episode.user.usage.calls == 2
        assert episode.trajectory[-1]["content"] == "Thanks! ###STOP###"
    user_requests = [r for r in requests if "get_users" not in r.tool_names]
    assert {r.body["seed"] for r in user_requests} == {e.seed for e in store.episodes("llm")}
    assert all("<scenario>" in r.messages[0]["content"] for r in user_requests)


def test_llm_agent__provider_outage_is_an_infrastructure_failure_retried_on_resume(
    store, monkeypatch
):
    with FakeOpenAIServer(lambda request: FakeReply.error(400, "model not found")) as server:
        config = llm_config(server, tasks=("create_task",))
        create_run(store, config)
        summary = run(store, config)
    assert (summary.finished, summary.failed) == (0, 2)
    assert {f.kind for f in store.failures("llm")} == {"infrastructure"}
    assert "model not found" in store.failures("llm")[0].error


def test_llm_agent__an_empty_reply_is_the_agents_error(store):
    with FakeOpenAIServer(lambda request: FakeReply.empty()) as server:
        config = llm_config(server, tasks=("create_task",))
        create_run(store, config)
        run(store, config)
    episodes = list(store.episodes("llm"))
    assert [(e.reward, e.termination) for e in episodes] == [(0.0, "agent_error")] * 2
    assert "ParticipantError" in episodes[0].note
    assert episodes[0].agent.usage.calls == 1
