import json

import pytest

from tau_env.grading.judge_prompt import (
    INSTRUCTIONS,
    OUTCOMES_HEADING,
    MalformedVerdict,
    judge_request,
    parse_verdicts,
    render_transcript,
    retry_request,
)
from tau_env.messages import AssistantMessage, ToolCall, ToolMessage, UserMessage

ASSERTIONS = ["The agent said the refund is $54.04.", "The agent was polite."]

TRAJECTORY = [
    AssistantMessage(content="Hi! How can I help you today?"),
    UserMessage(content="Refund my bottle, please."),
    AssistantMessage(
        tool_calls=[ToolCall(id="c1", name="get_order_details", arguments={"order_id": "#W1"})]
    ),
    ToolMessage(id="c1", content='{"order_id": "#W1"}'),
    UserMessage(tool_calls=[ToolCall(id="c2", name="reboot_device", requestor="user")]),
    ToolMessage(id="c2", content="Error: no phone", requestor="user", error=True),
    AssistantMessage(content="Your refund is $54.04."),
    UserMessage(content="###STOP###"),
]


def test_transcript__shows_every_message_with_its_speaker_and_the_tool_traffic():
    assert render_transcript(TRAJECTORY).split("\n") == [
        "agent: Hi! How can I help you today?",
        "customer: Refund my bottle, please.",
        'agent calls a tool: get_order_details({"order_id": "#W1"})',
        'tool result for the agent: {"order_id": "#W1"}',
        "customer calls a tool: reboot_device({})",
        "tool result for the customer (error): Error: no phone",
        "agent: Your refund is $54.04.",
        "customer: ###STOP###",
    ]


def test_request__system_rules_then_the_conversation_and_numbered_outcomes():
    system, user = judge_request(TRAJECTORY, ["one", "two\nlines"])
    assert system == {"role": "system", "content": INSTRUCTIONS}
    assert "each expected outcome" in INSTRUCTIONS.lower() and '"verdicts"' in INSTRUCTIONS
    assert user["role"] == "user"
    assert user["content"].startswith("Conversation:\nagent: Hi! How can I help you today?")
    assert user["content"].endswith(f"{OUTCOMES_HEADING}\n1. one\n2. two\n   lines")


def _reply(*verdicts, wrap=None):
    text = json.dumps({"verdicts": list(verdicts)})
    return wrap.format(text) if wrap else text


@pytest.mark.parametrize("wrap", [None, "```json\n{}\n```", "Here is my grading: {} Done."])
def test_parse__one_verdict_per_outcome_in_list_order_even_when_fenced(wrap):
    reply = _reply(
        {"outcome": 2, "reasoning": "polite throughout", "met": True},
        {"outcome": 1, "reasoning": "said $54.04", "met": False},
        wrap=wrap,
    )
    verdicts = parse_verdicts(reply, ASSERTIONS)
    assert [(v.assertion, v.met, v.justification) for v in verdicts] == [
        (ASSERTIONS[0], False, "said $54.04"),
        (ASSERTIONS[1], True, "polite throughout"),
    ]


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        ("", "it is empty"),
        ("I think both are met.", "it is not JSON"),
        ('{"results": []}', 'it has no "verdicts" list'),
        (_reply({"outcome": 1, "reasoning": "r", "met": True}), "outcomes [2] have no verdict"),
        (
            _reply({"outcome": 1, "reasoning": "r", "met": "yes"}, {}),
            '"met" of outcome 1 must be true or false',
        ),
        (_reply({"outcome": 3, "reasoning": "r", "met": True}), '"outcome" must be a number'),
        (
            _reply(
                {"outcome": 1, "reasoning": "r", "met": True},
                {"outcome": 1, "reasoning": "r", "met": False},
            ),
            "outcome 1 has two verdicts",
        ),
        (_reply({"outcome": 1, "met": True}), '"reasoning" of outcome 1 must be text'),
    ],
)
def test_parse__anything_but_a_complete_ruling_is_malformed(reply, problem):
    with pytest.raises(MalformedVerdict, match=problem.replace("[", r"\[").replace("]", r"\]")):
        parse_verdicts(reply, ASSERTIONS)


def test_parse__an_empty_ruling_is_malformed_not_a_pass():
    # The reference passes an episode whose judge returns no results at all.
    with pytest.raises(MalformedVerdict, match=r"outcomes \[1, 2\] have no verdict"):
        parse_verdicts('{"verdicts": []}', ASSERTIONS)


def test_retry_request__quotes_the_unusable_reply_and_the_reason():
    first = judge_request(TRAJECTORY, ASSERTIONS)
    again = retry_request(first, "nope", "it is not JSON", 2)
    assert again[:2] == first
    assert again[2] == {"role": "assistant", "content": "nope"}
    assert again[3]["role"] == "user"
    assert "it is not JSON" in again[3]["content"] and "2 expected outcomes" in again[3]["content"]
