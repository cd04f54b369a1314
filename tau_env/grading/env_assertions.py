"""ENV_ASSERTION check: registered assertion functions hold on the final world."""

from __future__ import annotations

from tau_env.errors import ToolError
from tau_env.grading.context import Episode
from tau_env.grading.db import nothing_to_compare
from tau_env.grading.outcome import Check, new_check
from tau_env.messages import side_of

__all__ = ["EnvAssertionGrader"]


class EnvAssertionGrader:
    """Runs each assertion on the final world (on a fork if one may change it); reward: product."""

    component = "ENV_ASSERTION"

    def check(self, episode: Episode) -> Check:
        """Grade one episode."""
        if nothing_to_compare(episode.task):
            return new_check("ENV_ASSERTION", 1.0, reported=False)
        criteria = episode.task.evaluation_criteria
        assertions = (criteria.env_assertions if criteria else None) or []
        if not assertions:
            return new_check("ENV_ASSERTION", 1.0)
        world = episode.world  # assertions must not change it
        sides = [side_of(assertion.env_type) for assertion in assertions]
        if any(map(world.changes_state, sides, [a.func_name for a in assertions])):
            world = world.fork()  # one fork for all: each sees what the previous ones changed
            run = world.run_env_function
        else:  # all read only (the usual case): no fork needed
            run = world.evaluate
        details = []
        for assertion, side in zip(assertions, sides, strict=True):
            try:
                value = run(side, assertion.func_name, assertion.arguments)
                met = value == assertion.assert_value
                detail = {"assertion": assertion.func_name, "met": met, "returned": value}
            except (ToolError, ValueError, KeyError) as error:
                met = False
                detail = {"assertion": assertion.func_name, "met": False, "error": str(error)}
            detail["arguments"] = assertion.arguments
            details.append(detail)
        reward = 1.0 if all(d["met"] for d in details) else 0.0
        return new_check("ENV_ASSERTION", reward, details)
