"""Measured difficulty of a generated task, kept where no participant looks.

The features are counted from the task itself (its gold plan, setup and checks) and from the
world it was drawn in (records of its customer the plan never touches). They are written into
the task's ``description.difficulty``, which neither side ever receives (`Description`), so a
trainer can build a curriculum without the policy learning the label. A level summarises them
for ``tau-env generate --difficulty``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tau_env.state.world import Toolbox

__all__ = ["LEVELS", "difficulty_features", "level_of"]

LEVELS = ("easy", "medium", "hard")
"""The difficulty levels, from the shortest gold plans to the longest (`level_of`)."""

_EASY_MAX = 2
_MEDIUM_MAX = 4
"""Level bounds on the gold plan's length (steps of both sides): up to 2 is easy, 3 to 4
medium, 5 or more hard. Fixed numbers, not quantiles, so a level means the same in every set
and every domain (telecom's plans are mostly the user's steps on the phone)."""


def level_of(plan_length: int) -> str:
    """The level of a task whose gold plan has `plan_length` steps (both sides)."""
    if plan_length <= _EASY_MAX:
        return "easy"
    return "medium" if plan_length <= _MEDIUM_MAX else "hard"


def difficulty_features(
    task: Mapping[str, Any], toolbox: Toolbox, distractors: int | None = None
) -> dict[str, int | str]:
    """What makes `task` (a task JSON object) long or tricky to solve.

    Returns:
        ``plan_length`` (gold steps of both sides), ``agent_steps``, ``user_steps``,
        ``lookups`` (agent steps that only read), ``writes`` (agent steps that can change
        the database), ``setup_calls`` (calls that build its starting state: faults,
        settings), ``env_assertions``, ``communicate`` (facts the agent must say),
        ``distractors`` (the customer's records the plan never touches; absent when the
        generator does not know) and ``level``.
    """
    criteria = task.get("evaluation_criteria") or {}
    actions = criteria.get("actions") or []
    agent = [a for a in actions if a.get("requestor", "assistant") == "assistant"]
    writes = 0
    for action in agent:
        spec = toolbox.agent_tools.get(action.get("name", ""))
        writes += bool(spec is not None and spec.mutates_state)
    setup = (task.get("initial_state") or {}).get("initialization_actions") or []
    features: dict[str, int | str] = {
        "plan_length": len(actions),
        "agent_steps": len(agent),
        "user_steps": len(actions) - len(agent),
        "lookups": len(agent) - writes,
        "writes": writes,
        "setup_calls": len(setup),
        "env_assertions": len(criteria.get("env_assertions") or []),
        "communicate": len(criteria.get("communicate_info") or []),
    }
    if distractors is not None:
        features["distractors"] = distractors
    features["level"] = level_of(len(actions))
    return features
