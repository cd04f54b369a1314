"""The oracle agent: the gold plan as actions, worked out once per task."""

from __future__ import annotations

from types import SimpleNamespace

import tau_env
from tau_env import CallTool, SendMessage, Stop
from tau_env.baselines.oracle import OracleAgent, PlainTextOracleAgent
from tau_env.transfer import TRANSFER_ANNOUNCEMENT

NO_REPLY = SimpleNamespace(inbox=[])
"""A view in which the user has said nothing (the oracle reads only the user's replies)."""


def _telecom_task_with_user_steps():
    domain = tau_env.load_domain("telecom")
    for task in domain.tasks:
        requestors = [a.requestor for a in task.gold_actions]
        if "user" in requestors and "assistant" in requestors:
            return task
    raise AssertionError("no telecom task with steps on both sides")


def _play(agent, count):
    return [agent.act(NO_REPLY, None) for _ in range(count)]


def test_act__agent_steps_calls_user_steps_one_request_then_closing_and_stops():
    task = _telecom_task_with_user_steps()
    actions = _play(OracleAgent(task), len(task.gold_actions) + 4)
    expected_calls = [a for a in task.gold_actions if a.requestor == "assistant"]
    calls = [a for a in actions if isinstance(a, CallTool)]
    assert [(c.name, c.arguments) for c in calls] == [(a.name, a.arguments) for a in expected_calls]
    requests = [a for a in actions if isinstance(a, SendMessage) and a.request]
    requested = [call.name for r in requests for call in r.request.tool_calls]
    assert requested == [a.name for a in task.gold_actions if a.requestor == "user"]
    closing_at = next(i for i, a in enumerate(actions) if isinstance(a, Stop)) - 1
    closing = actions[closing_at]
    assert isinstance(closing, SendMessage) and closing.request is None
    assert closing.content.startswith(("Everything you asked for", TRANSFER_ANNOUNCEMENT))
    assert all(isinstance(a, Stop) for a in actions[closing_at + 1 :])


def test_act__the_same_actions_every_episode_per_class():
    task = _telecom_task_with_user_steps()
    count = len(task.gold_actions) + 2
    first, second = _play(OracleAgent(task), count), _play(OracleAgent(task), count)
    assert all(a is b for a, b in zip(first, second, strict=True))
    plain = _play(PlainTextOracleAgent(task), count)
    assert all(a.request is None for a in plain if isinstance(a, SendMessage))


class Numbered(OracleAgent):
    """Words each request with its own counter: its actions cannot be shared."""

    def __init__(self, task):
        super().__init__(task)
        self.asked = 0

    def ask_user(self, steps):
        self.asked += 1
        return SendMessage(content=f"request {self.asked} ({id(self)})")


def test_act__a_subclass_with_its_own_wording_is_asked_every_episode():
    task = _telecom_task_with_user_steps()
    count = len(task.gold_actions) + 2
    first, second = Numbered(task), Numbered(task)
    texts = [
        [a.content for a in _play(agent, count) if isinstance(a, SendMessage)]
        for agent in (first, second)
    ]
    assert texts[0] != texts[1] and first.asked >= 1 and second.asked >= 1


def test_did_not_follow__remembered_per_reply_gives_the_matcher_s_verdict():
    from tau_env.wrappers.users.matcher import did_not_follow

    unremembered = did_not_follow.__wrapped__
    for reply in ("Done, I did that.", "Sorry, what should I do?", "I did something else."):
        assert did_not_follow(reply) == unremembered(reply) == did_not_follow(reply)


def test_words_as_this_module__per_class_of_the_methods_it_takes():
    from tau_env.baselines.oracle import _words_as_this_module

    assert _words_as_this_module(OracleAgent) and _words_as_this_module(PlainTextOracleAgent)
    assert not _words_as_this_module(Numbered) and not _words_as_this_module(Numbered)
