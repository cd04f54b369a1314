"""The Seating reset option: who opens, and whose tools each side may call (used by NoUser)."""

import pytest

import tau_env
from tau_env.actions import CallTool
from tau_env.env import Seating


def test_default_seating__is_dual_control_with_the_greeting():
    env = tau_env.make_env("mock")
    env.reset(seed=0, options={"task_id": "complete_task"})
    assert env.agent_selection == "user"
    assert env.unwrapped.conversation.trajectory[0].content == "Hi! How can I help you today?"


def test_no_greeting__gives_the_agent_the_first_turn():
    env = tau_env.make_env("mock")
    env.reset(seed=0, options={"task_id": "complete_task", "seating": Seating(greeting=None)})
    assert env.agent_selection == "agent"
    assert env.unwrapped.conversation.trajectory == []


def test_borrowed_tools__run_on_the_other_sides_database_and_answer_the_caller():
    env = tau_env.make_env("mock")
    seating = Seating(greeting=None, borrowed_tools={"agent": frozenset({"dismiss_notification"})})
    env.reset(seed=0, options={"task_id": "complete_and_dismiss", "seating": seating})
    env.step(CallTool(name="dismiss_notification", arguments={"notification_id": "notif_1"}))
    (result,) = env.observe("agent")["messages"]
    assert result["content"] == "Notification notif_1 dismissed"
    assert env.agent_selection == "agent"
    env.step(CallTool(name="check_notifications"))  # not borrowed: unknown to the agent
    (error,) = env.observe("agent")["messages"]
    assert error["error"] == 1 and "not found" in error["content"]


def test_bad_seating__is_rejected_and_changes_nothing():
    env = tau_env.make_env("mock")
    env.reset(seed=0)
    before = env.unwrapped.task.id
    with pytest.raises(ValueError, match="Seating"):
        env.reset(options={"seating": {"greeting": None}})
    assert env.unwrapped.task.id == before
    env.reset()
    assert env.unwrapped.task.id != before  # the task cycle did not advance on the bad call
