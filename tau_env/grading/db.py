"""DB check: the final databases equal those the gold actions produce (spec §6)."""

from __future__ import annotations

from typing import Any

from tau_env.grading.context import Episode
from tau_env.grading.outcome import Check, new_check
from tau_env.tasks.model import Task

__all__ = ["DBGrader", "nothing_to_compare"]


def nothing_to_compare(task: Task) -> bool:
    """True when the task has neither gold actions nor env assertions (both None).

    The reference then skips its environment comparison: DB and ENV_ASSERTION count as met
    and are left out of the reward breakdown.
    """
    criteria = task.evaluation_criteria
    return criteria is None or (criteria.actions is None and criteria.env_assertions is None)


class DBGrader:
    """Compares the final world with the expected world, both sides.

    Equivalent to comparing the reference's database hashes, but it looks only at records that
    either world changed, so its cost does not grow with the database. When the episode knows
    its task's baseline, the first detail says whether the gold plan changes the databases:
    ``{"database": "changed", "met": ...}`` (an item of partial credit), or ``{"database":
    "unchanged", "met": ..., "constraint": True}`` (met by doing nothing: a constraint).
    """

    component = "DB"

    def check(self, episode: Episode) -> Check:
        """Grade one episode."""
        if nothing_to_compare(episode.task):
            return new_check("DB", 1.0, reported=False)
        differences = episode.world.differences(episode.expected_world)
        details = database_details(episode, differences)
        return new_check("DB", 0.0 if differences else 1.0, details)


def database_details(episode: Episode, differences: list[str]) -> list[dict[str, Any]]:
    """The DB check's details.

    Whether the gold plan changes the world (when the baseline is known), then each path where
    the final world differs from the expected one.
    """
    details: list[dict[str, Any]] = []
    baseline = episode.baseline
    if baseline is not None:
        head: dict[str, Any] = {
            "database": "changed" if baseline.changes_world else "unchanged",
            "met": not differences,
        }
        if not baseline.changes_world:
            head["constraint"] = True
        details.append(head)
    details += [{"different": path} for path in differences]
    return details
