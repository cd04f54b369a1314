import json

import pytest

from tau_env.llm.failures import ProviderFailure
from tau_env.llm.prices import Price
from tau_env.llm.replies import StreamReader, completion_reply, error_detail


def _completion(message, usage=None):
    body = {"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}
    if usage is not None:
        body["usage"] = usage
    return json.dumps(body).encode()


def test_completion_reply__reads_text_calls_usage_and_prices_it():
    raw = _completion(
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "c1", "function": {"name": "f", "arguments": '{"a": 1}'}}],
        },
        {
            "prompt_tokens": 100,
            "completion_tokens": 10,
            "prompt_tokens_details": {"cached_tokens": 40},
        },
    )
    reply = completion_reply(raw, "openai/m", Price(1.0, 2.0, 0.5))
    assert reply.content is None and reply.tool_calls[0].arguments == {"a": 1}
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens) == (100, 10)
    assert reply.cost == 60 * 1.0 + 40 * 0.5 + 10 * 2.0
    assert reply.finish_reason == "stop" and reply.model == "openai/m"


@pytest.mark.parametrize("raw", [b"{}", b'{"choices": []}', b'{"choices": null}', b'{"usage": {}}'])
def test_completion_reply__no_choice_is_a_transient_failure_not_an_empty_reply(raw):
    # The provider returned nothing: retried, then an infrastructure failure (issue 42), never
    # the participant's empty reply.
    with pytest.raises(ProviderFailure, match="reply has no choice") as caught:
        completion_reply(raw, "m", None)
    assert caught.value.kind == "transient"


def test_completion_reply__an_empty_message_is_the_models_empty_reply():
    reply = completion_reply(b'{"choices": [{"message": {"content": ""}}]}', "m", None)
    assert reply.is_empty and reply.cost is None


@pytest.mark.parametrize("raw", [b"<html>502</html>", b"[1, 2]", b'{"error": {"message": "x"}}'])
def test_completion_reply__a_body_that_is_not_a_completion_is_transient(raw):
    with pytest.raises(ProviderFailure) as caught:
        completion_reply(raw, "m", None)
    assert caught.value.kind == "transient"


def _events(*chunks):
    lines = [b": keep-alive", b""]
    for chunk in chunks:
        lines += [b"data: " + json.dumps(chunk).encode(), b""]
    return [*lines, b"data: [DONE]"]


def test_stream_reader__joins_deltas_into_one_reply():
    reader = StreamReader("m", None)
    delta = lambda d, f=None: {"choices": [{"index": 0, "delta": d, "finish_reason": f}]}  # noqa: E731
    lines = _events(
        delta({"role": "assistant", "content": ""}),
        delta({"content": "Hel"}),
        delta({"content": "lo"}),
        delta(
            {"tool_calls": [{"index": 0, "id": "c9", "function": {"name": "f", "arguments": ""}}]}
        ),
        delta({"tool_calls": [{"index": 0, "function": {"arguments": '{"x":'}}]}),
        delta({"tool_calls": [{"index": 0, "function": {"arguments": " 2}"}}]}),
        delta({}, "tool_calls"),
        {"choices": [], "usage": {"prompt_tokens": 7, "completion_tokens": 3}},
    )
    assert [reader.feed(line) for line in lines][-1] is True
    reply = reader.reply()
    assert reply.content == "Hello" and reply.finish_reason == "tool_calls"
    assert (reply.tool_calls[0].id, reply.tool_calls[0].arguments) == ("c9", {"x": 2})
    assert reply.usage.total_tokens == 10


@pytest.mark.parametrize(
    "line", [b"data: {not json", b'data: {"error": {"message": "overloaded"}}']
)
def test_stream_reader__a_broken_chunk_is_transient(line):
    with pytest.raises(ProviderFailure) as caught:
        StreamReader("m", None).feed(line)
    assert caught.value.kind == "transient"


def test_error_detail__prefers_the_provider_message_on_one_line():
    assert error_detail(b'{"error": {"message": "bad\\nkey"}}') == "bad key"
    assert error_detail(b"<h1>Bad\n Gateway</h1>") == "<h1>Bad Gateway</h1>"
    assert error_detail(b"") == "(empty body)"


def test_stream_reader__a_stream_without_a_choice_is_a_transient_failure():
    reader = StreamReader("m", None)
    lines = _events({"choices": [], "usage": {"prompt_tokens": 7, "completion_tokens": 0}})
    assert [reader.feed(line) for line in lines][-1] is True
    with pytest.raises(ProviderFailure, match="no choice") as caught:
        reader.reply()
    assert caught.value.kind == "transient"
