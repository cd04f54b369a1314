"""Where the scripted user's brief comes from: the scenario text, read with the domain's words.

One mechanism for every domain (`tau_env.tasks.scenario_reading.read_scenario`): the brief is
read from ``str(task.user_scenario)``, the very text an LLM user receives, with the domain's
`UserVocabulary` (none: the generic reading). Nothing else of the task is looked at.
"""

from __future__ import annotations

from tau_env.domain import Domain
from tau_env.tasks.model import Task, UserScript
from tau_env.tasks.scenario_reading import ReadScript, read_scenario
from tau_env.tasks.user_vocabulary import UserVocabulary

__all__ = ["opening_line", "read_brief", "resolve_script", "vocabulary_of"]


def vocabulary_of(domain: Domain | None) -> UserVocabulary:
    """The domain's vocabulary for the scripted user (the generic one when it has none)."""
    vocabulary = domain.definition.user_vocabulary if domain is not None else None
    return vocabulary or UserVocabulary()


def read_brief(task: Task, domain: Domain | None = None) -> ReadScript:
    """The brief of `task` with the evidence of each element (read once per scenario text)."""
    return read_scenario(str(task.user_scenario), vocabulary_of(domain).scenario)


def resolve_script(task: Task, domain: Domain | None = None) -> UserScript:
    """The scripted user's brief for `task` (see `read_brief`)."""
    return read_brief(task, domain).script


def opening_line(task: Task, domain: Domain | None = None) -> str:
    """What the user says first: the reason for calling, in the user's own voice.

    The domain's vocabulary may say where a scenario states the opening line (banking).
    """
    return resolve_script(task, domain).opening
