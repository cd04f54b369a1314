"""A scripted NL-assertion judge for the fake OpenAI server (tests, demos, CI).

`judge_script` reads the numbered outcomes of a judge request (`tau_env.grading.judge_prompt`)
and answers with one verdict per outcome, decided by a rule on the outcome's text::

    with FakeOpenAIServer(judge_script()) as server:          # approves every outcome
        judge = LLMJudge.from_model(server.config())
    with FakeOpenAIServer(judge_script(lambda text: "refund" not in text)) as server: ...

Requests that are not judge requests (an agent's or a user's) get a plain text reply.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from tau_env.grading.judge_prompt import OUTCOMES_HEADING
from tau_env.testing.fake_openai import FakeReply, FakeRequest

__all__ = ["judge_outcomes", "judge_script", "verdicts_reply"]

_NUMBERED = re.compile(r"^(\d+)\. (.*)$")


def judge_outcomes(request: FakeRequest) -> list[str] | None:
    """The outcomes a judge request lists, in order (None: not a judge request)."""
    for message in request.messages:
        content = message.get("content")
        if message.get("role") != "user" or not isinstance(content, str):
            continue
        if OUTCOMES_HEADING not in content:
            continue
        listing = content.split(OUTCOMES_HEADING, 1)[1].strip("\n")
        outcomes: list[str] = []
        for line in listing.split("\n"):
            match = _NUMBERED.match(line)
            if match and int(match[1]) == len(outcomes) + 1:
                outcomes.append(match[2])
            elif outcomes and line.startswith("   "):
                outcomes[-1] += "\n" + line[3:]
        return outcomes
    return None


def verdicts_reply(outcomes: list[str], rule: Callable[[str], bool]) -> FakeReply:
    """A well-formed ruling on `outcomes`."""
    verdicts = [
        {"outcome": number, "reasoning": "scripted ruling", "met": bool(rule(text))}
        for number, text in enumerate(outcomes, start=1)
    ]
    return FakeReply.text(json.dumps({"verdicts": verdicts}))


def judge_script(
    rule: Callable[[str], bool] = lambda text: True,
) -> Callable[[FakeRequest], FakeReply]:
    """A server script playing a judge that rules each outcome by `rule` (default: met)."""

    def reply(request: FakeRequest) -> FakeReply:
        outcomes = judge_outcomes(request)
        if outcomes is None:
            return FakeReply.text("(not a judge request)")
        return verdicts_reply(outcomes, rule)

    return reply
