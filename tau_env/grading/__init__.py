"""Grading: one small class per check, combined by the task's reward basis."""

from tau_env.grading.actions import ActionGrader
from tau_env.grading.communicate import CommunicateGrader
from tau_env.grading.context import Episode
from tau_env.grading.db import DBGrader
from tau_env.grading.env_assertions import EnvAssertionGrader
from tau_env.grading.grader import ComponentGrader, TaskGrader
from tau_env.grading.nl_assertions import Judge, NLAssertionGrader, Verdict
from tau_env.grading.outcome import STOP_TERMINATIONS, Check, Grade, TerminationReason

__all__ = [
    "STOP_TERMINATIONS",
    "ActionGrader",
    "Check",
    "CommunicateGrader",
    "ComponentGrader",
    "DBGrader",
    "EnvAssertionGrader",
    "Episode",
    "Grade",
    "Judge",
    "NLAssertionGrader",
    "TaskGrader",
    "TerminationReason",
    "Verdict",
]
