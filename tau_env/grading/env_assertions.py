"""ENV_ASSERTION check: registered assertion functions hold on the final world."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tau_env.errors import ToolError
from tau_env.grading.context import Episode
from tau_env.grading.db import nothing_to_compare
from tau_env.grading.outcome import Check, new_check
from tau_env.messages import side_of
from tau_env.state.world import World
from tau_env.tasks.model import EnvAssertion

__all__ = ["EnvAssertionGrader", "run_assertions"]


class EnvAssertionGrader:
    """Runs each assertion on the final world (on a fork if one may change it); reward: product.

    An assertion that already holds at the task's start (`Episode.baseline`) is marked a
    constraint in its detail (``"constraint": True``): partial credit gives nothing for it.
    """

    component = "ENV_ASSERTION"

    def check(self, episode: Episode) -> Check:
        """Grade one episode."""
        if nothing_to_compare(episode.task):
            return new_check("ENV_ASSERTION", 1.0, reported=False)
        criteria = episode.task.evaluation_criteria
        assertions = (criteria.env_assertions if criteria else None) or []
        if not assertions:
            return new_check("ENV_ASSERTION", 1.0)
        details = run_assertions(episode.world, assertions)
        baseline = episode.baseline
        if baseline is not None:
            for detail, held in zip(details, baseline.assertions_at_start, strict=False):
                if held:  # met by doing nothing: a constraint for partial credit
                    detail["constraint"] = True
        reward = 1.0 if all(d["met"] for d in details) else 0.0
        return new_check("ENV_ASSERTION", reward, details)


def run_assertions(world: World, assertions: Sequence[EnvAssertion]) -> list[dict[str, Any]]:
    """Each assertion's outcome on `world` (which stays as it is), as check details.

    Assertions that may change the world run on one fork of it (each sees what the previous
    ones changed); read-only ones (the usual case) on the world itself.
    """
    sides = [side_of(assertion.env_type) for assertion in assertions]
    if any(map(world.changes_state, sides, [a.func_name for a in assertions])):
        world = world.fork()
        run = world.run_env_function
    else:
        run = world.evaluate
    details = []
    for assertion, side in zip(assertions, sides, strict=True):
        try:
            value = run(side, assertion.func_name, assertion.arguments)
            met = value == assertion.assert_value
            detail = {"assertion": assertion.func_name, "met": met, "returned": value}
        except (ToolError, ValueError, KeyError) as error:
            detail = {"assertion": assertion.func_name, "met": False, "error": str(error)}
        detail["arguments"] = assertion.arguments
        details.append(detail)
    return details
