"""Evaluation modes (spec §5) as env wrappers applied on top of the default env stack."""

from __future__ import annotations

from typing import Any

from tau_env.errors import TauEnvError
from tau_env.rollout.config import MODES
from tau_env.tasks.model import Task

__all__ = ["apply_mode", "has_user", "playable_in_mode"]


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


def playable_in_mode(task: Task, mode: str) -> bool:
    """Whether a task can be played in a mode (No-User needs a task the agent can start)."""
    if has_user(mode):
        return True
    from tau_env.wrappers import solo_compatible

    return solo_compatible(task)
