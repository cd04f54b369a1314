from __future__ import annotations

import json

import pytest

from tau_env.chat import parse_assistant_text, render_tool_call


def _calls(message):
    return [
        (c["function"]["name"], json.loads(c["function"]["arguments"]))
        for c in message.get("tool_calls", [])
    ]


def test_hermes__blocks_become_calls_and_the_rest_content():
    text = (
        'Let me look.\n<tool_call>\n{"name": "get_bill", "arguments": {"id": "B1"}}\n</tool_call>'
    )
    message = parse_assistant_text(text)
    assert message["content"] == "Let me look."
    assert _calls(message) == [("get_bill", {"id": "B1"})]


def test_hermes__several_blocks_keep_their_order():
    text = render_tool_call("a", {"x": 1}) + render_tool_call("b", {})
    assert _calls(parse_assistant_text(text)) == [("a", {"x": 1}), ("b", {})]
    assert parse_assistant_text(text)["content"] is None


def test_hermes__unclosed_block_at_the_end_still_counts():
    message = parse_assistant_text('<tool_call>{"name": "a", "arguments": {}}')
    assert _calls(message) == [("a", {})]


def test_hermes__unreadable_json_keeps_the_name_and_raw_text():
    message = parse_assistant_text(
        '<tool_call>{"name": "get_bill", "arguments": {"id": }</tool_call>'
    )
    call = message["tool_calls"][0]["function"]
    assert call["name"] == "get_bill"
    assert "arguments" in call["arguments"]


def test_hermes__no_name_at_all_is_an_unknown_tool():
    message = parse_assistant_text("<tool_call>garbage</tool_call>")
    assert message["tool_calls"][0]["function"]["name"] == "unparsable_tool_call"


@pytest.mark.parametrize(
    "text",
    [
        '{"name": "a", "arguments": {"x": 1}}',
        '{"type": "function", "function": {"name": "a", "arguments": "{\\"x\\": 1}"}}',
        '{"tool_calls": [{"type": "function", "function": {"name": "a", "arguments": {"x": 1}}}]}',
        '[{"name": "a", "arguments": {"x": 1}}]',
        '```json\n{"name": "a", "parameters": {"x": 1}}\n```',
    ],
)
def test_openai_json__forms_are_read(text):
    assert _calls(parse_assistant_text(text)) == [("a", {"x": 1})]


def test_openai_json__content_alongside_tool_calls():
    text = (
        '{"content": "One moment.", "tool_calls": [{"function": {"name": "a", "arguments": {}}}]}'
    )
    message = parse_assistant_text(text)
    assert message["content"] == "One moment."
    assert _calls(message) == [("a", {})]


@pytest.mark.parametrize("text", ["Hello there.", '{"answer": 42}', "[1, 2]", "{not json"])
def test_plain_text__stays_text(text):
    message = parse_assistant_text(text)
    assert message == {"role": "assistant", "content": text}


def test_think__reasoning_is_dropped():
    message = parse_assistant_text("<think>the user wants a refund</think>Sure, one moment.")
    assert message == {"role": "assistant", "content": "Sure, one moment."}


def test_empty__no_content():
    assert parse_assistant_text("   ") == {"role": "assistant", "content": None}
