import asyncio

import pytest

from tau_env.errors import ContextWindowExceeded, InfrastructureError
from tau_env.llm import CallLimiter, LLMClient, ModelConfig, ResponseCache, RetryPolicy, UsageLog
from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply
from tests.llm.conftest import FAST

HELLO = [{"role": "user", "content": "Hello"}]
TOOL = {
    "type": "function",
    "function": {
        "name": "lookup",
        "description": "Look something up.",
        "parameters": {"type": "object", "properties": {"q": {"type": "string"}}},
    },
}


def test_complete_sync__returns_text_usage_and_unknown_cost_as_none(server):
    server.push(FakeReply(content="Hi there", prompt_tokens=11, completion_tokens=3))
    reply = LLMClient(server.config(), retry=FAST).complete_sync(HELLO)
    assert reply.content == "Hi there"
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens) == (11, 3)
    assert reply.cost is None  # "openai/fake" has no price: no crash
    assert reply.attempts == 1 and not reply.cached


def test_complete__async_call_sends_tools_seed_and_temperature(server):
    server.push(FakeReply.tool_call("lookup", {"q": "x"}))
    client = LLMClient(server.config(temperature=0.3, seed=7), retry=FAST)
    reply = asyncio.run(client.complete(HELLO, [TOOL], seed=11))
    body = server.requests[0].body
    assert body["tools"][0]["function"]["name"] == "lookup"
    assert body["tool_choice"] == "auto"
    assert body["seed"] == 11 and body["temperature"] == 0.3
    assert reply.tool_calls[0].name == "lookup"
    assert reply.tool_calls[0].arguments == {"q": "x"}


def test_complete__prices_known_models():
    with FakeOpenAIServer(
        [FakeReply(content="ok", prompt_tokens=1000, completion_tokens=1000)]
    ) as s:
        config = ModelConfig("openai/gpt-4o", api_base=s.base_url, api_key="sk-fake")
        reply = LLMClient(config, retry=FAST).complete_sync(HELLO)
    assert reply.cost is not None and reply.cost > 0


@pytest.mark.parametrize(
    "fault", [FakeReply.error(429), FakeReply.error(500), FakeReply.error(503)]
)
def test_transient_failures__are_retried_with_backoff(server, fault):
    server.push(fault, fault, FakeReply.text("finally"))
    reply = LLMClient(server.config(), retry=FAST).complete_sync(HELLO)
    assert reply.content == "finally"
    assert reply.attempts == 3
    assert len(server.requests) == 3  # no hidden retries inside litellm or the OpenAI SDK


def test_timeouts__are_retried(server):
    server.push(FakeReply.timeout(1.5), FakeReply.text("in time"))
    client = LLMClient(server.config(timeout=0.3), retry=FAST)
    reply = asyncio.run(client.complete(HELLO))
    assert reply.content == "in time" and reply.attempts == 2


def test_transient_failures__become_an_infrastructure_error_after_the_retries(server):
    server.push(*[FakeReply.error(429)] * 3)
    client = LLMClient(server.config(), retry=RetryPolicy(max_retries=2, initial_delay=0.01))
    with pytest.raises(InfrastructureError) as caught:
        client.complete_sync(HELLO)
    assert caught.value.attempts == 3 and caught.value.transient
    assert len(server.requests) == 3


def test_permanent_failures__are_not_retried(server):
    server.push(FakeReply.error(401, "bad key"), FakeReply.text("never sent"))
    with pytest.raises(InfrastructureError) as caught:
        LLMClient(server.config(), retry=FAST).complete_sync(HELLO)
    assert not caught.value.transient
    assert len(server.requests) == 1


def test_context_window_errors__are_classified_and_not_retried(server):
    message = "This model's maximum context length is 8192 tokens. context_length_exceeded"
    server.push(FakeReply.error(400, message), FakeReply.text("never sent"))
    with pytest.raises(ContextWindowExceeded):
        LLMClient(server.config(), retry=FAST).complete_sync(HELLO)
    assert len(server.requests) == 1


def test_connection_failures__are_infrastructure_errors():
    server = FakeOpenAIServer().start()
    config = server.config()
    server.close()  # nothing listens on the port any more
    client = LLMClient(config, retry=RetryPolicy(max_retries=1, initial_delay=0.01))
    with pytest.raises(InfrastructureError) as caught:
        client.complete_sync(HELLO)
    assert caught.value.transient and caught.value.attempts == 2


def test_malformed_tool_call_json__is_returned_not_raised(server):
    server.push(FakeReply.malformed_tool_call("lookup", '{"q": '))
    reply = LLMClient(server.config(), retry=FAST).complete_sync(HELLO, [TOOL])
    assert reply.tool_calls[0].malformed
    assert reply.tool_calls[0].raw_arguments == '{"q": '


def test_cache__replays_a_reply_without_calling_the_provider(server, tmp_path):
    server.push(FakeReply.text("first answer"))
    cache = ResponseCache(tmp_path / "cache.sqlite")
    usage = UsageLog()
    client = LLMClient(server.config(seed=1), retry=FAST, cache=cache, usage=usage)
    first = client.complete_sync(HELLO)
    again = asyncio.run(client.complete(HELLO))  # same request: from the cache
    assert len(server.requests) == 1
    assert again.cached and again.content == first.content == "first answer"
    assert usage.by_model()["openai/fake"].cached_calls == 1
    # A new client on the same file (a replayed run) hits too.
    reopened = LLMClient(server.config(seed=1), cache=ResponseCache(cache.path))
    assert reopened.complete_sync(HELLO).content == "first answer"
    assert len(server.requests) == 1


def test_cache__key_changes_with_seed_temperature_tools_and_messages(server, tmp_path):
    server.push(*[FakeReply.text(str(i)) for i in range(5)])
    cache = ResponseCache(tmp_path / "c.sqlite")
    calls = [
        (server.config(seed=1), HELLO, None),
        (server.config(seed=2), HELLO, None),
        (server.config(seed=1, temperature=0.7), HELLO, None),
        (server.config(seed=1), HELLO, [TOOL]),
        (server.config(seed=1), [{"role": "user", "content": "Bye"}], None),
    ]
    replies = [LLMClient(c, cache=cache).complete_sync(m, t).content for c, m, t in calls]
    assert replies == ["0", "1", "2", "3", "4"]
    assert len(cache) == 5


def test_cache__does_not_store_failures(server, tmp_path):
    server.push(FakeReply.error(401), FakeReply.text("ok"))
    cache = ResponseCache(tmp_path / "c.sqlite")
    client = LLMClient(server.config(), retry=FAST, cache=cache)
    with pytest.raises(InfrastructureError):
        client.complete_sync(HELLO)
    assert len(cache) == 0
    assert client.complete_sync(HELLO).content == "ok"


def test_limiter__caps_concurrent_calls_across_clients():
    limiter = CallLimiter(max_concurrent=2)

    async def main(server):
        clients = [LLMClient(server.config(), limiter=limiter, retry=FAST) for _ in range(3)]
        return await asyncio.gather(*(clients[i % 3].complete(HELLO) for i in range(8)))

    with FakeOpenAIServer([FakeReply.text("x")] * 8, latency=0.05) as server:
        replies = asyncio.run(main(server))
    assert [r.content for r in replies] == ["x"] * 8
    assert limiter.peak == 2
    assert limiter.in_flight == 0


def test_usage_log__sums_tokens_and_counts_unpriced_calls(server):
    server.push(
        FakeReply(content="a", prompt_tokens=5, completion_tokens=2),
        FakeReply(content="b", prompt_tokens=7, completion_tokens=1),
    )
    client = LLMClient(server.config(), retry=FAST)
    client.complete_sync(HELLO)
    client.complete_sync(HELLO)
    totals = client.usage.by_model()["openai/fake"]
    assert (totals.calls, totals.prompt_tokens, totals.completion_tokens) == (2, 12, 3)
    assert totals.unpriced_calls == 2 and client.usage.total_cost == 0.0


def test_bad_configuration__is_rejected_with_the_culprit_named():
    with pytest.raises(ValueError, match="model"):
        ModelConfig("")
    with pytest.raises(ValueError, match="timeout"):
        ModelConfig("m", timeout=0)
    with pytest.raises(ValueError, match=r"\['tools'\]"):
        ModelConfig("m", params={"tools": []})
    with pytest.raises(TypeError, match="ModelConfig"):
        LLMClient("gpt-4")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_concurrent"):
        CallLimiter(0)
    with pytest.raises(ValueError, match="max_retries"):
        RetryPolicy(max_retries=-1)


def test_retry_policy__grows_exponentially_up_to_the_cap():
    policy = RetryPolicy(initial_delay=1.0, multiplier=2.0, max_delay=5.0, jitter=0.5)
    assert [policy.delay(n) for n in (1, 2, 3, 4)] == [1.0, 2.0, 4.0, 5.0]
    assert policy.delay(1, fraction=0.5) == 1.25


def test_importing_the_llm_module__does_not_import_litellm():
    import subprocess
    import sys

    code = "import sys, tau_env.llm, tau_env.testing.fake_openai; print('litellm' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_provider_body_that_is_not_json__is_retried_as_transient(server):
    server.push(FakeReply(raw_body="<html>bad gateway</html>"), FakeReply.text("recovered"))
    reply = LLMClient(server.config(), retry=FAST).complete_sync(HELLO)
    assert reply.content == "recovered" and reply.attempts == 2
