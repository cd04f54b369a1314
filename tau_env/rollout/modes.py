"""Evaluation modes (spec §5) as env wrappers applied on top of the default env stack."""

from __future__ import annotations

from typing import Any

from tau_env.errors import TauEnvError
from tau_env.rollout.config import MODES
from tau_env.tasks.model import Task

__all__ = ["apply_mode", "has_user", "playable_in_mode", "unplayable_reason"]


def has_user(mode: str) -> bool:
    """Whether a mode keeps the user side."""
    return not mode.startswith("no-user")


def apply_mode(env: Any, mode: str) -> Any:
    """Wrap `env` for an evaluation mode (``default`` returns it unchanged).

    ``no-user``: `NoUser`; ``oracle-plan``: `OraclePlan`; ``no-user-oracle-plan``: both.

    Raises:
        TauEnvError: Unknown mode, or no task of the env can be played in it.
    """
    if mode not in MODES:
        raise TauEnvError(f"mode must be one of {list(MODES)}, actually: {mode!r}")
    from tau_env.wrappers import NoUser, OraclePlan

    if not has_user(mode):
        try:
            env = NoUser(env)
        except ValueError as error:
            raise TauEnvError(f"mode {mode!r}: {error}") from None
    if mode.endswith("oracle-plan"):
        env = OraclePlan(env)
    return env


def unplayable_reason(task: Task, mode: str) -> str | None:
    """Why a task cannot be played, or graded fairly, in a mode; None when it can.

    Only the No-User modes refuse tasks: those the agent cannot start alone (the reference's
    test: a ticket and gold actions, or a history that leaves the agent the floor), and those
    whose reward needs COMMUNICATE, which nobody can receive without a user (a perfect agent
    would score 0 on them, and the mode's pass^k would measure the data, not the agent).
    """
    if has_user(mode):
        return None
    from tau_env.wrappers.no_user import no_user_refusal, solo_compatible

    if not solo_compatible(task):
        return (
            "the agent cannot start it alone: No-User needs a ticket and gold actions, or a "
            "history that leaves the agent the floor"
        )
    return no_user_refusal(task)


def playable_in_mode(task: Task, mode: str) -> bool:
    """Whether a task can be played, and graded fairly, in a mode (see `unplayable_reason`)."""
    return unplayable_reason(task, mode) is None
