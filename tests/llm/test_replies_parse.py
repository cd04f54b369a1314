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


def _has_choice(data: object) -> bool:
    """A JSON object whose ``choices`` start with an object (else the reply is a failure)."""
    if not isinstance(data, dict):
        return False
    choices = data.get("choices")
    return isinstance(choices, list) and bool(choices) and isinstance(choices[0], dict)


@pytest.mark.parametrize("body", BODIES)
def test_completion_reply__parses_as_json_loads_does(body):
    try:
        data = json.loads(body)
    except ValueError:
        data = None
    try:
        reply = completion_reply(body, "m", None)
    except ProviderFailure as failure:
        assert not _has_choice(data), failure.detail
        return
    assert _has_choice(data)
    message = data["choices"][0].get("message", {})
    assert reply.content == message.get("content")
