import asyncio

import pytest

from tau_env.errors import ContextWindowExceeded, InfrastructureError, ModelAccessError
from tau_env.llm import CallLimiter, LLMClient, ModelConfig, ResponseCache, RetryPolicy, UsageLog
from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply, FakeToolCall
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


def test_complete_sync__returns_text_usage_and_unknown_cost_as_none(server, route, stream):
    server.push(FakeReply(content="Hi there", prompt_tokens=11, completion_tokens=3))
    reply = LLMClient(server.config(route=route, stream=stream), retry=FAST).complete_sync(HELLO)
    assert reply.content == "Hi there"
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens) == (11, 3)
    assert reply.cost is None  # "openai/fake" has no price: no crash
    assert reply.attempts == 1 and not reply.cached


def test_complete__async_call_sends_tools_seed_and_temperature(server, route, stream):
    server.push(FakeReply.tool_call("lookup", {"q": "x"}))
    config = server.config(temperature=0.3, seed=7, route=route, stream=stream)
    client = LLMClient(config, retry=FAST)
    reply = asyncio.run(client.complete(HELLO, [TOOL], seed=11))
    body = server.requests[0].body
    assert body["tools"][0]["function"]["name"] == "lookup"
    assert body["tool_choice"] == "auto"
    assert body["seed"] == 11 and body["temperature"] == 0.3
    assert reply.tool_calls[0].name == "lookup"
    assert reply.tool_calls[0].arguments == {"q": "x"}


def test_complete__prices_known_models_alike_on_both_routes(monkeypatch):
    # The fake server stands for a remote OpenAI-compatible endpoint here (a local one's
    # replies have no price: the next test).
    for module in ("openai_http", "litellm_route"):
        monkeypatch.setattr(f"tau_env.llm.{module}.local_endpoint", lambda api_base: False)
    reply = FakeReply(content="ok", prompt_tokens=1000, completion_tokens=1000)
    costs = {}
    with FakeOpenAIServer([reply, reply]) as s:
        for route in ("lean", "litellm"):
            config = ModelConfig("openai/gpt-4o", api_base=s.base_url, api_key="k", route=route)
            costs[route] = LLMClient(config, retry=FAST).complete_sync(HELLO).cost
    assert costs["lean"] is not None and costs["lean"] > 0
    assert costs["lean"] == pytest.approx(costs["litellm"], rel=1e-9)


def test_complete__a_local_server_is_unpriced_unless_a_price_is_given():
    # Issue 42: a fake-server run of a model named like OpenAI's cost $0.1576.
    reply = FakeReply(content="ok", prompt_tokens=1000, completion_tokens=1000)
    given = {"input_cost_per_token": 1e-6, "output_cost_per_token": 2e-6}
    costs = {}
    with FakeOpenAIServer([reply, reply, reply]) as s:
        for name, route, params in (
            ("lean", "lean", {}),
            ("litellm", "litellm", {}),
            ("given", "auto", given),  # litellm-only parameters: the litellm route
        ):
            config = ModelConfig(
                "openai/gpt-4o", api_base=s.base_url, api_key="k", route=route, params=params
            )
            costs[name] = LLMClient(config, retry=FAST).complete_sync(HELLO).cost
    assert costs["lean"] is None and costs["litellm"] is None
    assert costs["given"] == pytest.approx(1000 * 1e-6 + 1000 * 2e-6)


@pytest.mark.parametrize(
    "fault", [FakeReply.error(429), FakeReply.error(500), FakeReply.error(503)]
)
def test_transient_failures__are_retried_with_backoff(server, route, fault):
    server.push(fault, fault, FakeReply.text("finally"))
    reply = LLMClient(server.config(route=route), retry=FAST).complete_sync(HELLO)
    assert reply.content == "finally"
    assert reply.attempts == 3
    assert len(server.requests) == 3  # no hidden retries inside litellm or the OpenAI SDK


@pytest.mark.parametrize("body", ["{}", '{"choices": []}'], ids=["empty object", "no choices"])
def test_replies_without_a_choice__are_retried_then_an_infrastructure_error(server, route, body):
    # A 200 reply that holds nothing is the provider's failure, not the model's empty answer.
    server.push(FakeReply(raw_body=body), FakeReply.text("finally"))
    reply = LLMClient(server.config(route=route), retry=FAST).complete_sync(HELLO)
    assert reply.content == "finally" and reply.attempts == 2
    server.push(*[FakeReply(raw_body=body)] * 3)
    policy = RetryPolicy(max_retries=2, initial_delay=0.01)
    with pytest.raises(InfrastructureError) as caught:
        LLMClient(server.config(route=route), retry=policy).complete_sync(HELLO)
    assert caught.value.attempts == 3 and caught.value.transient


def test_timeouts__are_retried(server, route):
    server.push(FakeReply.timeout(1.5), FakeReply.text("in time"))
    client = LLMClient(server.config(timeout=0.3, route=route), retry=FAST)
    reply = asyncio.run(client.complete(HELLO))
    assert reply.content == "in time" and reply.attempts == 2


def test_transient_failures__become_an_infrastructure_error_after_the_retries(server, route):
    server.push(*[FakeReply.error(429)] * 3)
    policy = RetryPolicy(max_retries=2, initial_delay=0.01)
    client = LLMClient(server.config(route=route), retry=policy)
    with pytest.raises(InfrastructureError) as caught:
        client.complete_sync(HELLO)
    assert caught.value.attempts == 3 and caught.value.transient
    assert len(server.requests) == 3


def test_permanent_failures__are_not_retried(server, route):
    server.push(FakeReply.error(400, "bad request"), FakeReply.text("never sent"))
    with pytest.raises(InfrastructureError) as caught:
        LLMClient(server.config(route=route), retry=FAST).complete_sync(HELLO)
    assert not caught.value.transient and not isinstance(caught.value, ModelAccessError)
    assert "bad request" in str(caught.value)
    assert len(server.requests) == 1


def test_context_window_errors__are_classified_and_not_retried(server, route):
    message = "This model's maximum context length is 8192 tokens. context_length_exceeded"
    server.push(FakeReply.error(400, message), FakeReply.text("never sent"))
    with pytest.raises(ContextWindowExceeded):
        LLMClient(server.config(route=route), retry=FAST).complete_sync(HELLO)
    assert len(server.requests) == 1


def test_connection_failures__are_infrastructure_errors(route):
    server = FakeOpenAIServer().start()
    config = server.config(route=route)
    server.close()  # nothing listens on the port any more
    client = LLMClient(config, retry=RetryPolicy(max_retries=1, initial_delay=0.01))
    with pytest.raises(InfrastructureError) as caught:
        client.complete_sync(HELLO)
    assert caught.value.transient and caught.value.attempts == 2


def test_malformed_tool_call_json__is_returned_not_raised(server, route):
    server.push(FakeReply.malformed_tool_call("lookup", '{"q": '))
    reply = LLMClient(server.config(route=route), retry=FAST).complete_sync(HELLO, [TOOL])
    assert reply.tool_calls[0].malformed
    assert reply.tool_calls[0].raw_arguments == '{"q": '


def test_cache__replays_a_reply_without_calling_the_provider(server, tmp_path, route):
    server.push(FakeReply.text("first answer"))
    cache = ResponseCache(tmp_path / "cache.sqlite")
    usage = UsageLog()
    client = LLMClient(server.config(seed=1, route=route), retry=FAST, cache=cache, usage=usage)
    first = client.complete_sync(HELLO)
    again = asyncio.run(client.complete(HELLO))  # same request: from the cache
    assert len(server.requests) == 1
    assert again.cached and again.content == first.content == "first answer"
    assert usage.by_model()["openai/fake"].cached_calls == 1
    # A new client on the same file (a replayed run) hits too, whichever route it takes.
    other = "litellm" if route == "lean" else "lean"
    reopened = LLMClient(server.config(seed=1, route=other), cache=ResponseCache(cache.path))
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


def test_importing_the_llm_module__imports_neither_litellm_nor_aiohttp():
    import subprocess
    import sys

    code = (
        "import sys, tau_env.llm, tau_env.testing.fake_openai\n"
        "from tau_env.llm import LLMClient, ModelConfig\n"
        "LLMClient(ModelConfig('openai/m', api_base='http://127.0.0.1:9/v1'))\n"
        "LLMClient(ModelConfig('anthropic/claude-sonnet-4-5'))\n"
        "print([m for m in ('litellm', 'aiohttp') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"  # both are imported on the first model call


def test_a_provider_body_that_is_not_json__is_retried_as_transient(server, route):
    server.push(FakeReply(raw_body="<html>bad gateway</html>"), FakeReply.text("recovered"))
    reply = LLMClient(server.config(route=route), retry=FAST).complete_sync(HELLO)
    assert reply.content == "recovered" and reply.attempts == 2


class RecordingPolicy(RetryPolicy):
    """Fast backoff that records every wait it decides (retry number, Retry-After, wait)."""

    def __init__(self, **settings):
        super().__init__(**settings)
        object.__setattr__(self, "waits", [])

    def wait(self, retry, fraction=0.0, retry_after=None):
        seconds = super().wait(retry, fraction, retry_after)
        self.waits.append((retry, retry_after, seconds))
        return seconds


def test_retry_after__is_a_floor_for_the_wait_on_both_routes(server, route):
    server.push(FakeReply.error(429, "slow down", retry_after=0.2), FakeReply.text("ok"))
    policy = RecordingPolicy(max_retries=2, initial_delay=0.001, jitter=0.0)
    reply = LLMClient(server.config(route=route), retry=policy).complete_sync(HELLO)
    assert reply.content == "ok" and reply.attempts == 2
    assert policy.waits == [(1, 0.2, 0.2)]  # the provider's 0.2 s, not the 1 ms backoff


def test_retry_after__longer_than_the_policy_allows_ends_the_retries(server, route):
    server.push(FakeReply.error(503, "maintenance", retry_after=3600), FakeReply.text("no"))
    policy = RecordingPolicy(max_retries=3, initial_delay=0.001, max_retry_after=60)
    with pytest.raises(InfrastructureError, match="asks to wait 3600 s") as caught:
        LLMClient(server.config(route=route), retry=policy).complete_sync(HELLO)
    assert caught.value.transient and caught.value.attempts == 1
    assert len(server.requests) == 1


def test_stream_cut__is_transient_and_retried_on_both_routes(server, route, stream):
    cut = FakeReply.stream_cut(after=2, then=FakeReply.text("a long answer cut in the middle"))
    server.push(cut, FakeReply.text("whole"))
    config = server.config(route=route, stream=stream)
    reply = LLMClient(config, retry=FAST).complete_sync(HELLO)
    assert reply.content == "whole" and reply.attempts == 2


def test_streamed_replies__equal_plain_ones(server, route):
    reply = FakeReply(
        content=None,
        tool_calls=(FakeToolCall("lookup", '{"q": "' + "x" * 50 + '"}', "call_a"),),
        prompt_tokens=40,
        completion_tokens=9,
    )
    server.push(reply, reply)
    plain = LLMClient(server.config(route=route), retry=FAST).complete_sync(HELLO, [TOOL])
    streamed = LLMClient(server.config(route=route, stream=True)).complete_sync(HELLO, [TOOL])
    assert [r.body.get("stream") for r in server.requests] == [None, True]
    assert server.requests[1].include_usage
    fields = ("content", "tool_calls", "usage", "cost", "finish_reason")
    assert [getattr(streamed, f) for f in fields] == [getattr(plain, f) for f in fields]
    assert plain.tool_calls[0].arguments == {"q": "x" * 50}


@pytest.mark.parametrize(
    ("status", "words"),
    [(401, ["rejected the API key", "OPENAI_API_KEY"]), (403, ["refused", "OPENAI_API_KEY"])],
)
def test_access_errors__fail_at_once_naming_the_variable(server, route, status, words):
    server.push(FakeReply.error(status, "Incorrect API key provided"), FakeReply.text("never"))
    with pytest.raises(ModelAccessError) as caught:
        LLMClient(server.config(route=route), retry=FAST).complete_sync(HELLO)
    message = str(caught.value)
    assert all(word in message for word in words) and "\n" not in message
    assert "openai" in message.lower() and not caught.value.transient
    assert len(server.requests) == 1  # never retried


def test_unknown_models__fail_at_once_naming_the_model(server, route):
    server.push(FakeReply.error(404, "The model `nope` does not exist"), FakeReply.text("x"))
    with pytest.raises(ModelAccessError, match="'openai/nope'") as caught:
        LLMClient(server.config("nope", route=route), retry=FAST).complete_sync(HELLO)
    assert "does not know model" in str(caught.value)
    assert len(server.requests) == 1


def test_missing_key__fails_before_any_call_naming_the_variable(monkeypatch, route):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("OPENAI_API_BASE", raising=False)
    client = LLMClient(ModelConfig("gpt-4.1-2025-04-14", route=route), retry=FAST)
    with pytest.raises(ModelAccessError, match="set OPENAI_API_KEY") as caught:
        client.check_access()
    with pytest.raises(ModelAccessError):
        client.complete_sync(HELLO)  # no network exists: it never tried
    assert "\n" not in str(caught.value)


def test_local_api_base__needs_no_key_on_both_routes(server, monkeypatch, route):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    server.push(FakeReply.text("no key needed"))
    config = ModelConfig(server.model(), api_base=server.base_url, route=route)
    assert LLMClient(config, retry=FAST).complete_sync(HELLO).content == "no key needed"


def test_lean_route__pools_connections_across_clients_of_a_loop(server):
    server.push(*[FakeReply.text(str(i)) for i in range(12)])

    async def main():
        for i in range(4):  # a client per episode, three calls each
            client = LLMClient(server.config(), retry=FAST)
            for _ in range(3):
                await client.complete([*HELLO, {"role": "user", "content": str(i)}])

    asyncio.run(main())
    assert len(server.requests) == 12 and server.connections == 1


def test_complete_sync__works_inside_a_running_event_loop(server, route):
    server.push(FakeReply.text("from a coroutine"))
    client = LLMClient(server.config(route=route), retry=FAST)

    async def main():
        return client.complete_sync(HELLO)  # a sync participant called from async code

    assert asyncio.run(main()).content == "from a coroutine"


def test_client__reports_its_route():
    lean = LLMClient(ModelConfig("openai/m", api_base="http://127.0.0.1:9/v1"))
    other = LLMClient(ModelConfig("anthropic/claude-sonnet-4-5"))
    assert (lean.route, other.route) == ("lean", "litellm")
    assert "lean" in repr(lean)


def test_fresh__a_client_for_another_conversation_with_its_own_usage_and_limiter(server, route):
    server.push(FakeReply.text("one"), FakeReply.text("two"))
    shared = CallLimiter(3)
    first = LLMClient(server.config(route=route), limiter=shared)
    second = first.fresh()
    assert (second.route, second.limiter, second.config) == (route, shared, first.config)
    assert second.usage is not first.usage
    alone = LLMClient(server.config(route=route))
    assert alone.fresh().limiter is not alone.limiter  # a limiter of its own, as it had
    assert first.complete_sync(HELLO).content == "one"
    assert second.complete_sync([*HELLO, {"role": "user", "content": "again"}]).content == "two"
    assert first.usage.by_model()["openai/fake"].calls == 1
    assert second.usage.by_model()["openai/fake"].calls == 1
    assert [len(r.messages) for r in server.requests] == [1, 2]  # no history shared


def test_cache__keeps_a_reply_with_half_an_emoji(server, tmp_path, route):
    server.push(FakeReply.text("Goodbye \ud83d ###STOP###"))
    cache = ResponseCache(tmp_path / "cache.sqlite")
    client = LLMClient(server.config(seed=1, route=route), retry=FAST, cache=cache)
    first = client.complete_sync(HELLO)
    assert first.content == "Goodbye \ud83d ###STOP###"
    again = client.complete_sync(HELLO)
    assert again.cached and again.content == first.content and len(server.requests) == 1
