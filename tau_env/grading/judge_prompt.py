"""What the NL-assertion judge reads and must answer: instructions, transcript, verdict format.

The rules are the reference's (spec §6): the judge reads the whole conversation (every message
of both sides, tool traffic included), rules on each expected outcome separately and answers
with one verdict per outcome, with its reasoning, as JSON. The wording is our own, and two
things are sturdier than in the reference: the outcomes are numbered and each verdict names its
number (so an outcome can be neither skipped nor counted twice), and a reply wrapped in a code
fence or in a sentence is still read. A reply that cannot be read raises `MalformedVerdict`
with the reason, which the judge quotes when it asks again.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from tau_env.grading.nl_assertions import Verdict
from tau_env.messages import AssistantMessage, Message, ToolCall, ToolMessage

__all__ = [
    "INSTRUCTIONS",
    "MalformedVerdict",
    "judge_request",
    "parse_verdicts",
    "render_outcomes",
    "render_transcript",
    "retry_request",
]

INSTRUCTIONS = """\
You grade a test of a customer-service agent. You receive the full record of one conversation \
between the agent and a customer, with every tool the agent (or the customer, on their own \
device) used and what it returned, and a numbered list of expected outcomes.

For each expected outcome, decide on its own whether the agent satisfied it in this \
conversation, using only what the record shows.

Reply with a single JSON object and nothing else:
{"verdicts": [{"outcome": 1, "reasoning": "<why, in a sentence or two>", "met": true}]}
Give exactly one verdict for every expected outcome: "outcome" is its number in the list, \
"reasoning" explains the decision, and "met" is true when the agent satisfied the outcome and \
false otherwise."""
"""The judge's system message."""

OUTCOMES_HEADING = "Expected outcomes:"
"""Introduces the numbered outcomes in the judge's request (the fake judge looks for it)."""

_SPEAKERS = {"assistant": "agent", "user": "customer"}


class MalformedVerdict(ValueError):
    """The judge's reply is not one usable verdict per outcome; the message says what is wrong."""


def _call_text(call: ToolCall) -> str:
    arguments = json.dumps(call.arguments, ensure_ascii=False, sort_keys=True)
    return f"{call.name}({arguments})"


def render_transcript(trajectory: Sequence[Message]) -> str:
    """Every message of the conversation, one entry per message, in order."""
    lines = []
    for message in trajectory:
        if isinstance(message, ToolMessage):
            caller = _SPEAKERS[message.requestor]
            failed = " (error)" if message.error else ""
            lines.append(f"tool result for the {caller}{failed}: {message.content or ''}")
            continue
        speaker = _SPEAKERS["assistant" if isinstance(message, AssistantMessage) else "user"]
        if message.content:
            lines.append(f"{speaker}: {message.content}")
        for call in message.tool_calls or ():
            lines.append(f"{speaker} calls a tool: {_call_text(call)}")
    return "\n".join(lines)


def render_outcomes(assertions: Sequence[str]) -> str:
    """The outcomes as a numbered list (continuation lines indented)."""
    return "\n".join(
        f"{number}. " + text.replace("\n", "\n   ")
        for number, text in enumerate(assertions, start=1)
    )


def judge_request(trajectory: Sequence[Message], assertions: Sequence[str]) -> list[dict[str, Any]]:
    """The chat messages of a first request to the judge (OpenAI format)."""
    body = (
        f"Conversation:\n{render_transcript(trajectory)}\n\n"
        f"{OUTCOMES_HEADING}\n{render_outcomes(assertions)}"
    )
    return [{"role": "system", "content": INSTRUCTIONS}, {"role": "user", "content": body}]


def retry_request(
    request: Sequence[dict[str, Any]], reply: str | None, problem: str, count: int
) -> list[dict[str, Any]]:
    """The request extended with the unusable reply and a request to answer again."""
    again = (
        f"That answer cannot be used: {problem}. Answer again with only the JSON object "
        f"described above, with one verdict for each of the {count} expected outcomes."
    )
    return [
        *request,
        {"role": "assistant", "content": reply or ""},
        {"role": "user", "content": again},
    ]


def _json_object(reply: str) -> Any:
    """The JSON object in a reply, tolerating a code fence or words around it."""
    text = reply.strip()
    if text.startswith("```"):
        text = text.split("\n", 1)[1] if "\n" in text else ""
        text = text.rsplit("```", 1)[0]
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # (nested deeper than the parser goes)
        start, end = text.find("{"), text.rfind("}")
        if start < 0 or end <= start:
            raise MalformedVerdict("it is not JSON") from None
        try:
            return json.loads(text[start : end + 1])
        except (ValueError, RecursionError):
            raise MalformedVerdict("it is not JSON") from None


def parse_verdicts(reply: str | None, assertions: Sequence[str]) -> list[Verdict]:
    """One `Verdict` per assertion, in the assertions' order.

    Raises:
        MalformedVerdict: The reply is empty, not JSON, not in the requested form, or does not
            rule exactly once on every outcome.
    """
    if not reply or not reply.strip():
        raise MalformedVerdict("it is empty")
    data = _json_object(reply)
    entries = data.get("verdicts") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise MalformedVerdict('it has no "verdicts" list')
    count = len(assertions)
    found: dict[int, Verdict] = {}
    for entry in entries:
        if not isinstance(entry, dict):
            raise MalformedVerdict("a verdict is not an object")
        number, met, reasoning = entry.get("outcome"), entry.get("met"), entry.get("reasoning")
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= count:
            raise MalformedVerdict(f'"outcome" must be a number from 1 to {count}: {number!r}')
        if not isinstance(met, bool):
            raise MalformedVerdict(f'"met" of outcome {number} must be true or false: {met!r}')
        if not isinstance(reasoning, str):
            raise MalformedVerdict(f'"reasoning" of outcome {number} must be text')
        if number in found:
            raise MalformedVerdict(f"outcome {number} has two verdicts")
        found[number] = Verdict(assertion=assertions[number - 1], met=met, justification=reasoning)
    missing = [number for number in range(1, count + 1) if number not in found]
    if missing:
        raise MalformedVerdict(f"outcomes {missing} have no verdict")
    return [found[number] for number in range(1, count + 1)]
