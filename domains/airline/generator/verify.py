"""Gold replay of generated tasks: each must reach reward 1.0 through the real environment."""

from __future__ import annotations

from collections.abc import Sequence

from tau_env.domain import Domain, DomainData
from tau_env.errors import DataError
from tau_env.state.database import Snapshot
from tau_env.tasks.model import Task

__all__ = ["GenerationError", "builtin_domain", "verify_tasks"]


class GenerationError(DataError):
    """A generated task fails its own gold replay (a bug in the generator)."""


def builtin_domain(
    snapshot: Snapshot, tasks: Sequence[Task], splits: dict[str, list[str]], policy: str
) -> Domain:
    """A domain over generated data, exactly as the loader would build it."""
    from tau_env.domains.airline import DEFINITION

    data = DomainData(
        policy=policy,
        agent_snapshot=snapshot,
        user_snapshot=None,
        tasks=tuple(tasks),
        splits={name: tuple(ids) for name, ids in splits.items()},
        source="generated",
    )
    return Domain(DEFINITION, data)


def verify_tasks(domain: Domain) -> None:
    """Check every task of `domain` by gold replay.

    A task passes when the oracle agent with the gold user reaches reward 1.0, every gold
    write succeeds, and the gold plan changes the database exactly when it writes.

    Raises:
        GenerationError: Names the first task that fails and why.
    """
    from tau_env.baselines.oracle import OracleAgent
    from tau_env.env.aec import TauEnv
    from tau_env.episode_runner import run_episode
    from tau_env.wrappers.users import GoldUser

    env = TauEnv(domain)
    for task in domain.tasks:
        result = run_episode(env, OracleAgent, GoldUser, task_id=task.id, seed=0)
        if result.reward != 1.0:
            raise GenerationError(f"task {task.id!r}: gold replay scored {result.reward}")
        world = domain.prepare(task).initial_world.fork(0)
        writes = False
        for action in task.gold_actions:
            outcome = world.call_tool("agent", action.name, action.arguments)
            spec = world.toolbox.agent_tools.get(action.name)
            writes = writes or bool(spec and spec.mutates_state)
            if outcome.error:
                raise GenerationError(f"task {task.id!r}: {action.name} failed: {outcome.content}")
        changed = bool(world.differences(domain.prepare(task).initial_world))
        if changed != writes:
            raise GenerationError(f"task {task.id!r}: writes={writes} but changed={changed}")
