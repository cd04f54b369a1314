"""Helpers to grade hand-built episodes."""

from __future__ import annotations

import pytest

import tau_env
from tau_env.grading import Episode, TerminationReason
from tau_env.messages import AssistantMessage, ToolCall, UserMessage
from tau_env.tasks import Task


@pytest.fixture
def domain():
    return tau_env.load_domain("mock")


def make_episode(
    domain,
    task: Task,
    trajectory=(),
    world=None,
    termination=TerminationReason.USER_STOP,
    *,
    baseline: bool = False,
) -> Episode:
    """An episode of `task`; with `baseline`, it knows the task's baseline (as the env's do)."""
    return Episode(
        task=task,
        trajectory=list(trajectory),
        world=world if world is not None else domain.prepare(task).initial_world.fork(),
        termination=termination,
        expected_world_factory=lambda: domain.expected_world(task),
        baseline_factory=(lambda: domain.baseline(task)) if baseline else None,
    )


def task_with(**criteria) -> Task:
    return Task.model_validate(
        {"id": "t", "user_scenario": {"instructions": "x"}, "evaluation_criteria": criteria}
    )


def said(text: str) -> AssistantMessage:
    return AssistantMessage(content=text)


def called(name: str, requestor="assistant", **arguments) -> AssistantMessage | UserMessage:
    call = ToolCall(id="c", name=name, arguments=arguments, requestor=requestor)
    return (
        AssistantMessage(tool_calls=[call])
        if requestor == "assistant"
        else UserMessage(tool_calls=[call])
    )
