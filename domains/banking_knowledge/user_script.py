"""Scripted-user briefs for banking tasks, read from the scenario text alone (placeholder)."""

from __future__ import annotations

from tau_env.tasks.model import Task, UserScript

__all__ = ["derive_user_script"]


def derive_user_script(task: Task) -> UserScript | None:
    """Not written yet."""
    return None
