"""The light gold replay grades every task as the full episode (oracle agent, gold user) does.

`tau-env generate` verifies each task with `GoldReplay` instead of `run_episode` through
`TauEnv`; this is what allows it: the same grade on every task of every built-in set, and on
tasks broken on purpose (a wrong argument, a missing step, a wrong fact to communicate), which
both must reject.
"""

from __future__ import annotations

from typing import Any

import pytest

import tau_env
from tau_env.baselines.oracle import OracleAgent
from tau_env.env.aec import TauEnv
from tau_env.episode_runner import run_episode
from tau_env.generation.gold_replay import OPENING, GoldReplay
from tau_env.registry import registered_domains
from tau_env.tasks.model import Task
from tau_env.wrappers.users import GoldUser


def _graded(grade: Any) -> dict[str, Any]:
    """The grade as JSON, every check (diagnostics included)."""
    dumped: dict[str, Any] = grade.model_dump(mode="json")
    return dumped


@pytest.mark.parametrize("name", registered_domains())
def test_gold_replay__grades_every_builtin_task_as_the_full_episode(name):
    domain = tau_env.load_domain(name)
    env = TauEnv(domain)
    light = GoldReplay(domain, seed=0)
    for task in domain.tasks:
        full = run_episode(env, OracleAgent, GoldUser.factory(domain), task_id=task.id, seed=0)
        assert _graded(light.grade(task)) == _graded(full.grade), task.id
        assert full.reward == 1.0, task.id  # (the built-in sets all pass their gold replay)


def _mutated(task: Task, change: Any) -> Task:
    data = task.model_dump(mode="json", exclude_none=True)
    change(data["evaluation_criteria"])
    return Task.model_validate(data)


def _wrong_argument(criteria: dict[str, Any]) -> None:
    """The last gold action with arguments gets a wrong value for its first argument."""
    action = next(a for a in reversed(criteria["actions"]) if a.get("arguments"))
    key = next(iter(action["arguments"]))
    action["arguments"][key] = "WRONG-VALUE"


def _wrong_user_argument(criteria: dict[str, Any]) -> None:
    """The customer's last gold step with arguments gets a wrong value for its first one."""
    action = next(
        a for a in reversed(criteria["actions"]) if a["requestor"] == "user" and a["arguments"]
    )
    key = next(iter(action["arguments"]))
    action["arguments"][key] = "WRONG-VALUE"


def _missing_step(criteria: dict[str, Any]) -> None:
    """The last gold step of the user is left out (the fix the customer makes on the phone)."""
    actions = criteria["actions"]
    last = max(i for i, a in enumerate(actions) if a.get("requestor") == "user")
    del actions[last]


def _forbidden_fact(criteria: dict[str, Any]) -> None:
    """The agent must communicate a fact the task forbids it to say."""
    criteria["communicate_info"] = [
        *criteria.get("communicate_info", []),
        criteria["forbidden_info"][0],
    ]


BREAKS = {"wrong argument": _wrong_user_argument, "missing step": _missing_step}


def _both(domain: Any, task: Task) -> tuple[dict[str, Any], dict[str, Any]]:
    """(full episode's grade, light replay's grade) of a task outside the domain's set."""
    full = run_episode(TauEnv(domain, [task]), OracleAgent, GoldUser.factory(domain), seed=0)
    light = GoldReplay(domain, seed=0, tasks=[task]).grade(task)
    domain.release(task)
    return _graded(full.grade), _graded(light)


@pytest.mark.parametrize("kind", sorted(BREAKS))
def test_gold_replay__rejects_broken_telecom_tasks_as_the_full_episode(kind):
    """Telecom tasks with a user fix: breaking the fix leaves the goal's assertion unmet."""
    domain = tau_env.load_domain("telecom")
    tasks = [
        t
        for t in domain.tasks
        if any(
            a.requestor == "user" and (a.arguments or kind != "wrong argument")
            for a in t.gold_actions
        )
    ]
    rejected = 0
    for task in tasks[::12]:
        full, light = _both(domain, _mutated(task, BREAKS[kind]))
        assert light == full, task.id
        rejected += full["reward"] == 0.0
    assert rejected >= len(tasks[::12]) // 2  # most are broken for real, and both say so


@pytest.mark.parametrize("name", ["airline", "retail", "banking_knowledge"])
def test_gold_replay__rejects_a_wrong_fact_to_communicate_as_the_full_episode(name):
    domain = tau_env.load_domain(name)
    tasks = [t for t in domain.tasks if t.evaluation_criteria.forbidden_info][:15]
    assert tasks
    for task in tasks:
        full, light = _both(domain, _mutated(task, _forbidden_fact))
        assert light == full, task.id
        assert full["reward"] == 0.0, task.id


@pytest.mark.parametrize("name", ["airline", "retail"])
def test_gold_replay__agrees_on_wrong_arguments_of_desk_tasks(name):
    """A wrong id in a desk task's last write: whatever the grade, both give the same one."""
    domain = tau_env.load_domain(name)
    for task in domain.tasks[::10]:
        full, light = _both(domain, _mutated(task, _wrong_argument))
        assert light == full, task.id


def test_gold_replay__the_light_user_opens_with_a_fixed_line():
    domain = tau_env.load_domain("mock")
    task = domain.tasks[0]
    env = TauEnv(domain)
    full = run_episode(env, OracleAgent, GoldUser.factory(domain), task_id=task.id, seed=0)
    opening = full.trajectory[1]
    assert opening.role == "user" and opening.content != OPENING
    assert GoldReplay(domain).grade(task).reward == full.reward == 1.0
