"""Where the scripted user's brief comes from: the task, the domain, or the task's structure."""

from __future__ import annotations

from tau_env.domain import Domain
from tau_env.tasks.model import StructuredUserInstructions, Task, UserScript

__all__ = ["TRANSFER_TOOL", "fallback_script", "opening_line", "resolve_script"]

TRANSFER_TOOL = "transfer_to_human_agents"
"""The agent tool whose use means the conversation goes to a human (every domain has it)."""


def opening_line(task: Task, domain: Domain | None = None) -> str:
    """What the user says first: the script's opening, else the reason for calling.

    The script is the task's own, else the one the domain derives (from a free-text scenario,
    in banking).
    """
    if task.user_script is not None:
        return task.user_script.opening
    derive = domain.definition.derive_user_script if domain is not None else None
    derived = derive(task) if derive is not None else None
    if derived is not None:
        return derived.opening
    instructions = task.user_scenario.instructions
    if isinstance(instructions, StructuredUserInstructions):
        return instructions.reason_for_call
    return task.ticket or instructions


def resolve_script(task: Task, domain: Domain | None = None) -> UserScript:
    """The scripted user's brief for `task`.

    In order: the task's own ``user_script`` (built-in tasks); the domain's
    ``derive_user_script`` (official tasks whose goals can be read from their structure, such
    as telecom); `fallback_script`.
    """
    if task.user_script is not None:
        return task.user_script
    derive = domain.definition.derive_user_script if domain is not None else None
    if derive is not None:
        derived = derive(task)
        if derived is not None:
            return derived
    return fallback_script(task)


def fallback_script(task: Task) -> UserScript:
    """A minimal brief any task yields: open with the request, do what is asked, stop when done.

    The opening is the reason for calling (or the ticket); every user tool is accepted; a
    transfer is the expected outcome when the gold plan transfers. Facts are unknown, so the
    user answers no questions: enough for oracle agents, not for a fair LLM-agent evaluation.
    """
    return UserScript(
        opening=opening_line(task),
        expects_transfer=any(action.name == TRANSFER_TOOL for action in task.gold_actions),
    )
