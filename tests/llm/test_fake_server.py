import json
import urllib.error
import urllib.request

import pytest

from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply


def _post(url, body):
    request = urllib.request.Request(
        url + "/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        return response.status, json.loads(response.read())


def test_fake_server__answers_queued_replies_in_order_over_http():
    with FakeOpenAIServer([FakeReply.text("one"), FakeReply.tool_call("f", {"x": 1})]) as server:
        _, first = _post(server.base_url, {"model": "fake", "messages": [{"role": "user"}]})
        _, second = _post(server.base_url, {"model": "fake", "messages": []})
        assert server.base_url.startswith("http://127.0.0.1:")
    assert first["choices"][0]["message"]["content"] == "one"
    call = second["choices"][0]["message"]["tool_calls"][0]
    assert call["function"] == {"name": "f", "arguments": '{"x": 1}'}
    assert second["choices"][0]["finish_reason"] == "tool_calls"
    assert first["usage"]["total_tokens"] == (
        first["usage"]["prompt_tokens"] + first["usage"]["completion_tokens"]
    )


def test_fake_server__records_requests_and_lets_a_function_script_replies():
    def script(request):
        return FakeReply.text(f"you said {request.last_message['content']}")

    with FakeOpenAIServer(script) as server:
        _, reply = _post(server.base_url, {"model": "m", "messages": [{"content": "hi"}]})
        assert [r.number for r in server.requests] == [1]
        assert server.requests[0].body["model"] == "m"
    assert reply["choices"][0]["message"]["content"] == "you said hi"


@pytest.mark.parametrize("status", [429, 500])
def test_fake_server__sends_injected_http_errors(status):
    server = FakeOpenAIServer([FakeReply.error(status)])
    with server, pytest.raises(urllib.error.HTTPError) as caught:
        _post(server.base_url, {"messages": []})
    assert caught.value.code == status


def test_fake_server__fails_loudly_when_the_script_runs_out():
    server = FakeOpenAIServer([])
    with server, pytest.raises(urllib.error.HTTPError) as caught:
        _post(server.base_url, {"messages": []})
    assert caught.value.code == 400
    assert b"no scripted reply left" in caught.value.read()


def test_fake_server__rejects_a_negative_latency():
    with pytest.raises(ValueError, match="latency"):
        FakeOpenAIServer(latency=-1)
