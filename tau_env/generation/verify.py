"""Gold replay of a written task set, loaded exactly as ``--data-dir`` loads it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tau_env.domain import load_domain
from tau_env.errors import DataError

__all__ = ["GenerationError", "verify_folder"]

VERIFY_RETRIEVAL = {"banking_knowledge": "no_knowledge"}
"""The retrieval variant a domain with a knowledge base is verified with (gold plans never
search, so the cheapest variant)."""


class GenerationError(DataError):
    """A generated task does not reach reward 1.0 by its own gold replay (a generator bug)."""


def verify_folder(domain: str, data_dir: Path, task_ids: Sequence[str]) -> None:
    """Play every task with the oracle agent and the gold user; each must reach reward 1.0.

    Raises:
        GenerationError: Names the first task that does not, and its reward.
    """
    from tau_env.baselines.oracle import OracleAgent
    from tau_env.env.aec import TauEnv
    from tau_env.episode_runner import run_episode
    from tau_env.wrappers.users import GoldUser

    loaded = load_domain(domain, data_dir, retrieval=VERIFY_RETRIEVAL.get(domain))
    env = TauEnv(loaded)
    for task_id in task_ids:
        result = run_episode(env, OracleAgent, GoldUser, task_id=task_id, seed=0)
        if result.reward != 1.0:
            raise GenerationError(
                f"{domain} task {task_id}: gold replay scored {result.reward}, not 1.0 "
                "(a generator bug; nothing was written)"
            )
