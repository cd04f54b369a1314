"""DB check: the final databases equal those the gold actions produce (spec §6)."""

from __future__ import annotations

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
    either world changed, so its cost does not grow with the database.
    """

    component = "DB"

    def check(self, episode: Episode) -> Check:
        """Grade one episode."""
        if nothing_to_compare(episode.task):
            return new_check("DB", 1.0, reported=False)
        differences = episode.world.differences(episode.expected_world)
        if not differences:
            return new_check("DB", 1.0, [])
        return new_check("DB", 0.0, [{"different": path} for path in differences])
