"""Gold replay of generated tasks: every task must be solvable exactly as its plan says.

A task passes when every gold call succeeds (no ``Error`` result, no error flag), the gold
plan changes the database exactly when it writes, and the oracle agent reaches reward 1.0
both with the gold user and with the scripted user that reads only the scenario.
"""

from __future__ import annotations

from tau_env.domain import Domain, DomainData
from tau_env.errors import DataError
from tau_env.messages import side_of

__all__ = ["GenerationError", "builtin_domain", "verify_tasks"]


class GenerationError(DataError):
    """A generated task fails its own gold replay (a bug in the generator)."""


def builtin_domain(data: DomainData, retrieval: str = "no_knowledge") -> Domain:
    """A domain over generated data, exactly as the registry builds it for one variant."""
    from tau_env.domains.banking_knowledge import DEFINITION

    support = DEFINITION.retrieval
    assert support is not None
    definition, variant_data = support.configure(DEFINITION, data, retrieval, {})
    return Domain(definition, variant_data, retrieval)


def verify_tasks(domain: Domain) -> None:
    """Check every task of `domain` by gold replay.

    Raises:
        GenerationError: Names the first task that fails and why.
    """
    from tau_env.baselines.oracle import OracleAgent
    from tau_env.env.aec import TauEnv
    from tau_env.episode_runner import run_episode
    from tau_env.wrappers.users import GoldUser, ScriptedUser

    env = TauEnv(domain)
    scripted = ScriptedUser.factory(domain)
    for task in domain.tasks:
        prepared = domain.prepare(task)
        world = prepared.initial_world.fork(0)
        writes = False
        for action in task.gold_actions:
            side = side_of(action.requestor)
            outcome = world.call_tool(side, action.name, action.arguments)
            content = outcome.content or ""
            if outcome.error or content.lstrip().startswith(("Error", "Failed")):
                raise GenerationError(f"task {task.id!r}: {action.name} failed: {content}")
            spec = world.toolbox.tools(side).get(action.name)
            writes = writes or bool(spec and spec.mutates_state)
        changed = bool(world.differences(prepared.initial_world))
        if changed != writes:
            raise GenerationError(f"task {task.id!r}: writes={writes} but changed={changed}")
        for name, user in (("gold user", GoldUser), ("scripted user", scripted)):
            result = run_episode(env, OracleAgent, user, task_id=task.id, seed=0)
            if result.reward != 1.0:
                raise GenerationError(
                    f"task {task.id!r}: oracle with the {name} scored {result.reward}"
                )
