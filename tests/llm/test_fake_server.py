import http.client
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


def _stream(url, body):
    """POST a streaming request; the events' data, in order (raises on a cut stream)."""
    request = urllib.request.Request(
        url + "/chat/completions",
        data=json.dumps({**body, "stream": True}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        assert response.headers["Content-Type"] == "text/event-stream"
        text = response.read().decode()
    events = [block for block in text.split("\n\n") if block]
    assert all(event.startswith("data: ") for event in events)
    return [event.removeprefix("data: ") for event in events]


def _joined(events):
    """The reply the deltas add up to: text, tool calls, finish reason, usage chunks."""
    text, calls, finish, usage = "", {}, None, []
    for event in events[:-1]:
        chunk = json.loads(event)
        if not chunk["choices"]:
            usage.append(chunk["usage"])
            continue
        choice = chunk["choices"][0]
        finish = choice["finish_reason"] or finish
        text += choice["delta"].get("content") or ""
        for delta in choice["delta"].get("tool_calls") or []:
            call = calls.setdefault(delta["index"], {"id": None, "name": "", "arguments": ""})
            call["id"] = delta.get("id") or call["id"]
            call["name"] += delta.get("function", {}).get("name") or ""
            call["arguments"] += delta.get("function", {}).get("arguments") or ""
    return text, [calls[i] for i in sorted(calls)], finish, usage


def test_fake_server__streams_text_as_deltas_then_done():
    with FakeOpenAIServer([FakeReply.text("Hello there, how can I help?")]) as server:
        events = _stream(server.base_url, {"model": "m", "messages": [{"content": "hi"}]})
    assert events[-1] == "[DONE]"
    text, calls, finish, usage = _joined(events)
    assert (text, calls, finish, usage) == ("Hello there, how can I help?", [], "stop", [])
    assert len(events) > 4  # word by word, not one chunk
    assert json.loads(events[0])["choices"][0]["delta"]["role"] == "assistant"


def test_fake_server__streams_tool_calls_with_arguments_in_pieces():
    arguments = {"task_id": "task_1", "status": "completed", "note": "x" * 40}
    reply = FakeReply.tool_calls_of(("update", arguments), ("lookup", {}))
    with FakeOpenAIServer([reply]) as server:
        events = _stream(server.base_url, {"model": "m", "messages": []})
    text, calls, finish, _ = _joined(events)
    assert text == "" and finish == "tool_calls"
    assert [(c["id"], c["name"]) for c in calls] == [("call_1_0", "update"), ("call_1_1", "lookup")]
    assert json.loads(calls[0]["arguments"]) == arguments
    assert calls[1]["arguments"] == "{}"
    pieces = sum('"arguments"' in e for e in events)
    assert pieces > 4  # the long arguments arrive in several deltas


def test_fake_server__sends_a_usage_chunk_only_when_asked():
    reply = FakeReply(content="ok", prompt_tokens=12, completion_tokens=3)
    with FakeOpenAIServer([reply, reply]) as server:
        options = {"stream_options": {"include_usage": True}}
        asked = _stream(server.base_url, {"model": "m", "messages": [], **options})
        plain = _stream(server.base_url, {"model": "m", "messages": []})
        assert server.requests[0].include_usage and not server.requests[1].include_usage
        assert server.requests[0].stream
    assert _joined(asked)[3] == [{"prompt_tokens": 12, "completion_tokens": 3, "total_tokens": 15}]
    assert json.loads(asked[-2])["choices"] == []  # the usage chunk comes last, before [DONE]
    assert all(json.loads(e)["usage"] is None for e in asked[:-2])
    assert _joined(plain)[3] == [] and all("usage" not in json.loads(e) for e in plain[:-1])


def test_fake_server__stream_cut_drops_the_connection_mid_stream():
    server = FakeOpenAIServer([FakeReply.stream_cut(after=2)])
    with server, pytest.raises(http.client.IncompleteRead) as caught:
        _stream(server.base_url, {"model": "m", "messages": []})
    received = caught.value.partial.decode()
    assert received.count("data: ") == 2 and "[DONE]" not in received


def test_fake_server__stream_cut_of_a_plain_reply_sends_half_the_body():
    server = FakeOpenAIServer([FakeReply.stream_cut(then=FakeReply.text("a" * 200))])
    with server, pytest.raises(http.client.IncompleteRead):
        _post(server.base_url, {"model": "m", "messages": []})


def test_fake_server__errors_of_a_stream_request_are_plain_json_with_their_status():
    server = FakeOpenAIServer([FakeReply.error(429, "slow down")])
    with server, pytest.raises(urllib.error.HTTPError) as caught:
        _stream(server.base_url, {"model": "m", "messages": []})
    assert caught.value.code == 429 and caught.value.headers["Retry-After"] == "0"
    assert json.loads(caught.value.read())["error"]["message"] == "slow down"


def test_fake_server__stream_cut_rejects_a_negative_count():
    with pytest.raises(ValueError, match="after"):
        FakeReply.stream_cut(after=-1)


def test_fake_server__litellm_reads_the_stream():
    from tau_env.llm._backend import litellm

    with FakeOpenAIServer([FakeReply.tool_call("lookup", {"q": "x" * 30})]) as server:
        chunks = list(
            litellm().completion(
                model=server.model(),
                api_base=server.base_url,
                api_key="sk-fake",
                messages=[{"role": "user", "content": "hi"}],
                stream=True,
                stream_options={"include_usage": True},
            )
        )
        built = litellm().stream_chunk_builder(chunks)
    call = built.choices[0].message.tool_calls[0]
    assert (call.function.name, json.loads(call.function.arguments)) == ("lookup", {"q": "x" * 30})
    assert built.usage.completion_tokens > 0
