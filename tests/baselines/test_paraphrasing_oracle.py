"""The paraphrasing oracle: the gold plan, each user step asked for in a given wording."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import tau_env
from tau_env import CallTool, SendMessage
from tau_env.baselines.paraphrasing_oracle import ParaphrasingOracleAgent
from tau_env.messages import UserMessage

NO_REPLY = SimpleNamespace(inbox=[])


def _task_with_user_steps():
    for task in tau_env.load_domain("telecom").tasks:
        if sum(a.requestor == "user" for a in task.gold_actions) >= 2:
            return task
    raise AssertionError("no telecom task with two user steps")


TASK = _task_with_user_steps()
WORDINGS = {
    step.name: [
        (dict(step.arguments), f"first {step.name}"),
        (dict(step.arguments), f"other {step.name}"),
    ]
    for step in TASK.gold_actions
    if step.requestor == "user"
}


def _messages(agent, count):
    actions = [agent.act(NO_REPLY, None) for _ in range(count)]
    return [a.content for a in actions if isinstance(a, SendMessage) and a.content], actions


def test_user_steps__are_asked_in_the_given_wordings_agent_steps_are_calls():
    texts, actions = _messages(ParaphrasingOracleAgent(TASK, WORDINGS), len(TASK.gold_actions) + 3)
    user_steps = [a.name for a in TASK.gold_actions if a.requestor == "user"]
    assert texts[: len(user_steps)] == [
        f"{'first' if i % 2 == 0 else 'other'} {name}" for i, name in enumerate(user_steps)
    ]  # step i takes the i-th fitting wording
    assert all(a.request is None for a in actions if isinstance(a, SendMessage))  # words only
    calls = [a.name for a in actions if isinstance(a, CallTool)]
    assert calls == [a.name for a in TASK.gold_actions if a.requestor == "assistant"]


def test_rotation__starts_the_plan_at_another_wording():
    first = _messages(ParaphrasingOracleAgent(TASK, WORDINGS, rotation=1), 3)[0][0]
    assert first.startswith("other ")


def test_a_step_without_a_fitting_wording__is_a_precise_error():
    name = next(a.name for a in TASK.gold_actions if a.requestor == "user")
    wrong = {name: [({"mode": "nowhere"}, "text")]}
    with pytest.raises(ValueError, match=f"no wording asks for {name}"):
        ParaphrasingOracleAgent(TASK, wrong).act(NO_REPLY, None)


@pytest.mark.parametrize(("rephrase", "again"), [(False, "first"), (True, "other")])
def test_not_followed__asks_again_in_the_same_or_the_next_wording(rephrase, again):
    agent = ParaphrasingOracleAgent(TASK, WORDINGS, rephrase=rephrase)
    asked = None
    while asked is None:
        action = agent.act(NO_REPLY, None)
        asked = action if isinstance(action, SendMessage) else None
    reply = SimpleNamespace(inbox=[UserMessage(content="Sorry, I'm not sure what you mean.")])
    repeated = agent.act(reply, None)
    assert repeated.content == asked.content.replace("first", again)
