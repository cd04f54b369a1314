"""Grading: one small class per check, combined by the task's reward basis."""

from tau_env.grading.actions import ActionGrader
from tau_env.grading.communicate import CommunicateGrader
from tau_env.grading.context import Episode
from tau_env.grading.db import DBGrader
from tau_env.grading.env_assertions import EnvAssertionGrader
from tau_env.grading.grader import ComponentGrader, TaskGrader, combine
from tau_env.grading.judge import LLMJudge, as_judge
from tau_env.grading.nl_assertions import Judge, NLAssertionGrader, Verdict
from tau_env.grading.outcome import STOP_TERMINATIONS, Check, Grade, TerminationReason
from tau_env.grading.rejudge import arejudge, needs_judge, rejudge
from tau_env.grading.strict import GRADINGS, Grading, StrictReading, read_strictly, strict_basis

__all__ = [
    "GRADINGS",
    "STOP_TERMINATIONS",
    "ActionGrader",
    "Check",
    "CommunicateGrader",
    "ComponentGrader",
    "DBGrader",
    "EnvAssertionGrader",
    "Episode",
    "Grade",
    "Grading",
    "Judge",
    "LLMJudge",
    "NLAssertionGrader",
    "StrictReading",
    "TaskGrader",
    "TerminationReason",
    "Verdict",
    "arejudge",
    "as_judge",
    "combine",
    "needs_judge",
    "read_strictly",
    "rejudge",
    "strict_basis",
]
