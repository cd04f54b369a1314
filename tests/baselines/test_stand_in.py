"""The GRPO stand-in: the gold plan as model text, giving up at its failure rate."""

from __future__ import annotations

import pytest

import tau_env
from tau_env.baselines.stand_in import GIVE_UP, StandInPolicy
from tau_env.chat import make_chat_env, parse_assistant_text


class _Rollout:
    def __init__(self):
        self.chat = make_chat_env("telecom")


def _play(policy, rollout, task_id):
    rollout.chat.reset(task_id=task_id, seed=0)
    texts = []
    while not rollout.chat.done:
        texts.append(policy.text())
        rollout.chat.step(parse_assistant_text(texts[-1]))
    return texts, rollout.chat.reward


def test_stand_in__without_failures_plays_the_gold_plan_to_a_pass():
    rollout = _Rollout()
    task_id = tau_env.make_env("telecom").unwrapped.tasks[0].id
    texts, reward = _play(StandInPolicy(rollout, failure_rate=0.0), rollout, task_id)
    assert reward == 1.0 and any("<tool_call>" in text for text in texts)


def test_stand_in__fails_at_its_rate_and_refuses_a_bad_one():
    rollout = _Rollout()
    task_id = tau_env.make_env("telecom").unwrapped.tasks[0].id
    texts, reward = _play(StandInPolicy(rollout, failure_rate=1.0), rollout, task_id)
    assert texts == [GIVE_UP] and reward == 0.0
    with pytest.raises(ValueError, match="failure_rate"):
        StandInPolicy(rollout, failure_rate=1.5)
