"""An LLM agent and an LLM user play banking tasks over HTTP (the fake OpenAI server).

The fake models are scripted from the task's gold plan (a test fixture, not a participant):
the agent searches the knowledge base first, then makes the plan's calls and asks the
customer, in plain text, to run the customer's steps; the customer runs exactly the calls the
agent lists and stops when told everything is done. Both go through `tau_env.llm` and litellm,
so tool schemas, discoverable-tool arguments (JSON text inside JSON) and the dense variant's
embedding calls all cross the wire.
"""

from __future__ import annotations

import json
import re

import pytest

import tau_env
from tau_env.baselines.llm_agent import LLMAgent
from tau_env.episode_runner import run_episode
from tau_env.llm import LLMClient, RetryPolicy
from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply
from tau_env.wrappers.users import LLMUser
from tests.domains.banking_knowledge.conftest import dense_options

FAST = RetryPolicy(max_retries=2, initial_delay=0.01, jitter=0.0)
ASK = "Please run these on your side:"
DONE = "All set, everything is done."
LISTED = re.compile(r"^- (\w+) (\{.*\})$", re.M)
TASKS = ["task_026", "task_032", "task_044"]


def _segments(task):
    """The gold plan as agent calls and batches of customer calls, in order."""
    segments: list[tuple[str, object]] = [
        ("call", ("KB_search", {"query": "how to help this customer"}))
    ]
    for action in task.gold_actions:
        if action.requestor == "assistant":
            segments.append(("call", (action.name, dict(action.arguments))))
        elif segments[-1][0] == "ask":
            segments[-1][1].append(action)
        else:
            segments.append(("ask", [action]))
    return segments


def _model(task):
    segments = _segments(task)

    def reply(request):
        messages = request.body["messages"]
        if messages[0]["content"].startswith("<instructions>"):
            return _agent_turn(messages, segments)
        return _customer_turn(messages)

    return reply


def _agent_turn(messages, segments):
    calls = sum(len(m.get("tool_calls") or []) for m in messages if m["role"] == "assistant")
    asks = sum(1 for m in messages if m["role"] == "assistant" and ASK in (m.get("content") or ""))
    position = calls + asks
    if position >= len(segments):
        return FakeReply.text(DONE)
    kind, step = segments[position]
    if kind == "call":
        name, arguments = step
        return FakeReply.tool_call(name, arguments)
    lines = [f"- {a.name} {json.dumps(a.arguments)}" for a in step]
    return FakeReply.text("\n".join([ASK, *lines]))


def _customer_turn(messages):
    # In the user's view the agent speaks as "user" and the customer as "assistant".
    last_agent = max(i for i, m in enumerate(messages) if m["role"] == "user")
    text = messages[last_agent].get("content") or ""
    if DONE in text:
        return FakeReply.text("Thank you! ###STOP###")
    if ASK in text:
        listed = LISTED.findall(text)
        done = sum(1 for m in messages[last_agent:] if m["role"] == "tool")
        if done < len(listed):
            name, arguments = listed[done]
            return FakeReply.tool_call(name, json.loads(arguments))
        return FakeReply.text("Done, I ran all of that.")
    return FakeReply.text("Hi, I need some help with my accounts.")


def _play(data_dir, retrieval, options, task_id):
    env = tau_env.make_env(
        "banking_knowledge", data_dir=data_dir, retrieval=retrieval, retrieval_options=options
    )
    domain = env.unwrapped.domain
    task = domain.task(task_id)
    with FakeOpenAIServer(_model(task)) as server:
        agent_client = LLMClient(server.config("agent"), retry=FAST)
        user = LLMUser.factory(LLMClient(server.config("user"), retry=FAST), domain, seed=1)
        result = run_episode(env, lambda _: LLMAgent(agent_client), user, task_id=task_id, seed=0)
        return result, server.requests


@pytest.mark.parametrize("task_id", TASKS)
def test_llm_agent_and_user__solve_tasks_with_bm25_search(data_dir, task_id):
    result, requests = _play(data_dir, "bm25_grep", None, task_id)
    assert result.reward == 1.0, result.grade.failed_components()
    agent_requests = [r for r in requests if r.body["messages"][0]["content"].startswith("<")]
    assert agent_requests[0].tool_names[:3] == ["KB_search", "grep", "transfer_to_human_agents"]
    search = next(m for m in result.trajectory if m.role == "tool" and m.name == "KB_search")
    assert search.content.startswith("1. ") and "[Timing: retrieval=" in search.content
    user_tools = {r.body.get("tools") is not None for r in requests if r not in agent_requests}
    assert user_tools == {True}


def test_llm_agent_and_user__solve_a_task_with_dense_search(data_dir, embeddings, tmp_path):
    before = len(embeddings.embedding_requests)
    options = dense_options(embeddings, str(tmp_path / "vectors.sqlite"))
    result, _ = _play(data_dir, "openai_embeddings", options, "task_026")
    assert result.reward == 1.0, result.grade.failed_components()
    requests = embeddings.embedding_requests[before:]
    assert sum(len(r["input"]) for r in requests[:-1]) == 698  # the knowledge base, once
    assert requests[-1]["input"] == ["how to help this customer"]
    search = next(m for m in result.trajectory if m.role == "tool" and m.name == "KB_search")
    assert search.content.count("\n   ID: ") == 10
