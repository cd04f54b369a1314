import json

from hypothesis import given, settings
from hypothesis import strategies as st

from tau_env.llm.cache import request_key
from tau_env.llm.wire import ChatRequest, RequestWriter

SYSTEM = {"role": "system", "content": "You are a helpful agent. " * 50}
TOOLS = [
    {
        "type": "function",
        "function": {"name": "lookup", "parameters": {"type": "object", "properties": {}}},
    }
]


def _writer(**overrides):
    settings = {"model": "m", "key_model": "openai/m", "settings": {"temperature": 0.0}}
    settings.update(params={}, temperature=0.0)
    settings.update(overrides)
    return RequestWriter(**settings)


def _key(messages, tools=None, seed=None, params=None, temperature=0.0):
    return request_key(
        model="openai/m",
        messages=messages,
        tools=tools,
        tool_choice="auto" if tools else None,
        temperature=temperature,
        seed=seed,
        params=params or {},
    )


def test_request_writer__body_is_the_openai_request():
    call = _writer(settings={"temperature": 0.5, "max_tokens": 9}).call(
        ChatRequest([SYSTEM, {"role": "user", "content": "Hi é"}], TOOLS, None, 4), stream=True
    )
    assert json.loads(call.body) == {
        "model": "m",
        "messages": [SYSTEM, {"role": "user", "content": "Hi é"}],
        "tools": TOOLS,
        "temperature": 0.5,
        "max_tokens": 9,
        "tool_choice": "auto",
        "seed": 4,
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    assert call.key is None  # not asked for


def test_request_writer__no_tools_means_no_tool_choice():
    body = json.loads(_writer().call(ChatRequest([SYSTEM], [], "required")).body)
    assert "tools" not in body and "tool_choice" not in body and "seed" not in body


message = st.fixed_dictionaries(
    {"role": st.sampled_from(["user", "assistant", "tool"]), "content": st.text(max_size=30)}
)


@settings(max_examples=60, deadline=None)
@given(
    conversations=st.lists(st.lists(message, min_size=1, max_size=6), min_size=1, max_size=5),
    seed=st.none() | st.integers(0, 9),
    with_tools=st.booleans(),
)
def test_request_writer__keys_equal_request_key_however_the_history_moves(
    conversations, seed, with_tools
):
    writer = _writer(params={"top_p": 0.5})
    history = []
    for step in conversations:  # grows, then sometimes restarts from a shorter prefix
        history = [*history[: len(history) // 2], *step] if len(history) > 8 else history + step
        tools = TOOLS if with_tools else None
        call = writer.call(ChatRequest(history, tools, None, seed), with_key=True)
        assert call.key == _key(history, tools, seed, params={"top_p": 0.5})
        assert json.loads(call.body)["messages"] == history


def test_request_writer__a_message_edited_in_place_is_sent_as_edited():
    writer = _writer()
    history = [SYSTEM, {"role": "user", "content": "first"}]
    writer.call(ChatRequest(history))
    history[1]["content"] = "edited"
    call = writer.call(ChatRequest(history), with_key=True)
    assert json.loads(call.body)["messages"][1]["content"] == "edited"
    assert call.key == _key(history)


def test_request_writer__a_new_tool_list_is_sent_as_given():
    writer = _writer()
    writer.call(ChatRequest([SYSTEM], TOOLS))
    other = [{"type": "function", "function": {"name": "other", "parameters": {}}}]
    body = json.loads(writer.call(ChatRequest([SYSTEM], other)).body)
    assert body["tools"] == other
    grown = [*TOOLS, *other]
    assert json.loads(writer.call(ChatRequest([SYSTEM], grown)).body)["tools"] == grown


def test_request_writer__system_prompts_shared_by_conversations_are_written_exactly():
    prompt = {"content": "Policy: é " * 40, "role": "system"}  # key order differs from SYSTEM
    for turn in ("first", "second"):  # the second conversation reuses the prompt's JSON
        messages = [prompt, {"role": "user", "content": turn}]
        call = _writer().call(ChatRequest(messages, TOOLS, None, 3), with_key=True)
        assert json.loads(call.body)["messages"] == messages
        assert call.key == _key(messages, TOOLS, seed=3)
    other = [{"role": "system", "content": "Policy: é " * 40, "name": "x"}]
    assert json.loads(_writer().call(ChatRequest(other)).body)["messages"] == other


def test_request_writer__a_lone_surrogate_is_sent_as_its_json_escape():
    # Half an emoji from an earlier reply ("\ud83d") has no UTF-8 form; JSON's escape keeps it.
    history = [SYSTEM, {"role": "assistant", "content": "Goodbye \ud83d"}]
    call = _writer().call(ChatRequest(history), with_key=True)
    assert b"Goodbye \\ud83d" in call.body
    assert json.loads(call.body)["messages"] == history
    assert call.key == _key(history)
