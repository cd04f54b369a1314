"""Tasks: the reference's task model, task files and splits."""

from tau_env.tasks.loading import parse_tasks, read_json, read_splits, select_split
from tau_env.tasks.model import (
    Description,
    EnvAssertion,
    EnvFunctionCall,
    EvaluationCriteria,
    GoalCheck,
    GoldAction,
    InitializationData,
    InitialState,
    RewardType,
    StructuredUserInstructions,
    Task,
    UserScenario,
    UserScript,
)

__all__ = [
    "Description",
    "EnvAssertion",
    "EnvFunctionCall",
    "EvaluationCriteria",
    "GoalCheck",
    "GoldAction",
    "InitialState",
    "InitializationData",
    "RewardType",
    "StructuredUserInstructions",
    "Task",
    "UserScenario",
    "UserScript",
    "parse_tasks",
    "read_json",
    "read_splits",
    "select_split",
]
