"""Completion bodies are parsed exactly as `json.loads` parses them, whatever their shape."""

import json

import pytest

from tau_env.llm.failures import ProviderFailure
from tau_env.llm.replies import completion_reply

BODIES = [
    b"{}",
    b'{"choices": [{"message": {"content": "caf\xc3\xa9"}}]}',
    b'{"choices": [{"message": {"content": "hi"}}]} \n',
    b' {"choices": []}',
    b"\xef\xbb\xbf{}",
    b"{\x00}\x00",
    b'{"choices": ',
    b'{"choices": [1, ',
    b'{"a": "\xff"}',
    b'{"a": 1}{}',
    b'{"a": 1} x',
    b"",
    b"[]",
]


@pytest.mark.parametrize("body", BODIES)
def test_completion_reply__parses_as_json_loads_does(body):
    try:
        data = json.loads(body)
    except ValueError:
        data = None
    try:
        reply = completion_reply(body, "m", None)
    except ProviderFailure as failure:
        assert data is None or not isinstance(data, dict), failure.detail
        return
    assert isinstance(data, dict)
    expected = data.get("choices") or [{}]
    message = expected[0].get("message", {}) if isinstance(expected[0], dict) else {}
    assert reply.content == message.get("content")
