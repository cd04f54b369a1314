"""Oracle-Plan mode: the agent is told the task's resolution steps (who does what, with what).

The reference's oracle-plan ablation (spec §5) puts the gold actions in the agent's system
prompt. Here the plan joins the agent's standing instructions, so it is in the agent's first
observation (and in every later one, like the policy). Each step says who performs it: the
agent itself, or the user, whom the agent must ask. Over `NoUser` there is no user, so every
step is the agent's own (user steps act on the user's device through the user's tools): the
paper's "oracle plan, no user" mode, which the reference does not implement.
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils.wrappers import BaseWrapper

from tau_env.env.aec import SideContext, TauEnv
from tau_env.messages import Side
from tau_env.tasks.model import Task

__all__ = ["OraclePlan", "resolution_steps"]


def resolution_steps(task: Task, *, with_user: bool = True) -> str:
    """The task's gold actions as a numbered plan in a ``<resolution_steps>`` block.

    Args:
        task: The task.
        with_user: Whether a user is present to perform the user's steps; without one the
            agent performs them with the user's tools.

    Returns:
        One line per step, ``Step i (who): name(key=value, ...)``; a note when the task has
        no gold action (nothing to do but answer or refuse).
    """
    lines = []
    for number, action in enumerate(task.gold_actions, start=1):
        if action.requestor == "assistant":
            who = "you"
        elif with_user:
            who = "ask the user to do this on their side"
        else:
            who = "you, on the user's device"
        lines.append(f"Step {number} ({who}): {action.call_text()}")
    if not lines:
        lines.append("No tool call is needed: answer the request or decline it per the policy.")
    return "<resolution_steps>\n" + "\n".join(lines) + "\n</resolution_steps>"


class OraclePlan(BaseWrapper):  # type: ignore[misc]  # pettingzoo ships no type information
    """Adds the task's resolution steps to the agent's instructions.

    Changes one thing: the agent's ``instructions`` (observation and `context`). Composes with
    `NoUser` in either order of construction: ``OraclePlan(NoUser(env))``.

    Args:
        env: A tau_env AEC environment (wrapped or not).

    Raises:
        TypeError: `env` is not a tau_env environment.
    """

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        if not isinstance(env.unwrapped, TauEnv):
            raise TypeError(
                f"OraclePlan wraps tau_env environments, actually: {type(env.unwrapped).__name__}"
            )
        self._context: SideContext | None = None

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode and prepare the plan of its task."""
        self.env.reset(seed=seed, options=options)
        inner = self.env.context("agent")
        with_user = "user" in self.env.possible_agents
        plan = resolution_steps(self.env.unwrapped.task, with_user=with_user)
        self._context = SideContext(
            side=inner.side,
            instructions=f"{inner.instructions}\n\n{plan}",
            tools=inner.tools,
            tool_names=inner.tool_names,
        )

    def observe(self, agent: Side) -> dict[str, Any]:
        """The observation; the agent's carries the plan in its instructions."""
        observation = self.env.observe(agent)
        if agent != "agent" or self._context is None:
            return observation  # type: ignore[no-any-return]
        return {**observation, "instructions": self._context.instructions}

    def context(self, side: Side) -> SideContext:
        """The side's context; the agent's instructions end with the plan."""
        if side == "agent" and self._context is not None:
            return self._context
        return self.env.context(side)  # type: ignore[no-any-return]
