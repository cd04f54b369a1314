"""Exact tokens (vLLM's ``return_token_ids`` and ``logprobs``) read on both routes, cached."""

from __future__ import annotations

import pytest

from tau_env.llm import EXACT_TOKENS, LLMClient, LLMResponse, ResponseCache, TurnTokens
from tau_env.llm.response import turn_tokens
from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply

REPLY = FakeReply(content="hi", prompt_token_ids=(1, 2, 3), token_ids=(7, 8), logprobs=(-0.5, -1.0))
EXPECTED = TurnTokens((1, 2, 3), (7, 8), (-0.5, -1.0))


@pytest.mark.parametrize("route", ["lean", "litellm"])
@pytest.mark.parametrize("stream", [False, True])
def test_tokens__read_from_plain_and_streamed_replies(route, stream):
    with FakeOpenAIServer([REPLY]) as server:
        config = server.config(route=route, stream=stream, params=EXACT_TOKENS)
        response = LLMClient(config).complete_sync([{"role": "user", "content": "x"}])
        body = server.requests[0].body
    assert response.tokens == EXPECTED and response.content == "hi"
    assert body["logprobs"] is True and body["return_token_ids"] is True


def test_tokens__none_when_the_server_returns_none():
    with FakeOpenAIServer([FakeReply.text("hi")]) as server:
        response = LLMClient(server.config()).complete_sync([{"role": "user", "content": "x"}])
    assert response.tokens is None


def test_turn_tokens__ids_from_token_id_logprob_entries():
    entries = [{"token": "token_id:5", "logprob": -0.1}, {"token": "token_id:9", "logprob": -2}]
    assert turn_tokens(None, None, entries) == TurnTokens((), (5, 9), (-0.1, -2.0))
    assert turn_tokens(None, None, None) is None
    assert turn_tokens(["a"], [1.5, "x"], "junk") is None  # malformed fields are ignored


def test_tokens__survive_the_response_cache(tmp_path):
    cache = ResponseCache(tmp_path / "cache.sqlite")
    with FakeOpenAIServer([REPLY]) as server:
        client = LLMClient(server.config(params=EXACT_TOKENS), cache=cache)
        first = client.complete_sync([{"role": "user", "content": "x"}])
        again = client.complete_sync([{"role": "user", "content": "x"}])
        assert server.request_count == 1
    assert again.cached and again.tokens == first.tokens == EXPECTED
    record = LLMResponse.from_record(first.to_record())
    assert record.tokens == EXPECTED
