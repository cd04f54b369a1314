"""Gold replay of a written task set, loaded exactly as ``--data-dir`` loads it.

Each task is played by `tau_env.generation.gold_replay.GoldReplay`: the oracle agent and the
gold user through the env's conversation, world and grader, without the AEC loop (a test
shows it grades every built-in task as ``run_episode(env, OracleAgent, GoldUser)`` does).

With ``workers > 1`` the tasks are shared among worker processes (each loads the folder and
plays its share); the set written does not depend on it, only the time does.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from tau_env.domain import load_domain
from tau_env.errors import DataError

__all__ = ["VERIFY_RETRIEVAL", "GenerationError", "verify_folder"]

VERIFY_RETRIEVAL = {"banking_knowledge": "no_knowledge"}
"""The retrieval variant a domain with a knowledge base is verified with (gold plans never
search, so the cheapest variant)."""


class GenerationError(DataError):
    """A generated task does not reach reward 1.0 by its own gold replay (a generator bug)."""


def _first_failure(domain: str, data_dir: str, task_ids: Sequence[str]) -> str | None:
    """Play `task_ids` (`GoldReplay`); the first that does not reach 1.0, described, or None."""
    from tau_env.generation.gold_replay import GoldReplay

    loaded = load_domain(domain, data_dir, retrieval=VERIFY_RETRIEVAL.get(domain))
    replay = GoldReplay(loaded, seed=0)
    for task_id in task_ids:
        task = loaded.task(task_id)
        reward = replay.grade(task).reward
        if reward != 1.0:
            return f"{domain} task {task_id}: gold replay scored {reward}, not 1.0"
        loaded.release(task)  # memory of one task, not of the set
    return None


def verify_folder(
    domain: str,
    data_dir: Path,
    task_ids: Sequence[str],
    workers: int = 1,
    backend: str = "local",
) -> None:
    """Play every task with the oracle agent and the gold user; each must reach reward 1.0.

    Args:
        domain: The domain.
        data_dir: The data folder holding ``domains/<domain>/``.
        task_ids: The tasks to play.
        workers: Processes sharing the tasks (1: this process); with Ray, the Ray tasks
            (1: one per CPU of the cluster).
        backend: ``"local"`` (this machine's processes) or ``"ray"``
            (`tau_env.generation.ray_replay`).

    Raises:
        GenerationError: Names the first task that does not, and its reward.
    """
    if backend == "ray":
        from tau_env.generation.ray_replay import ray_failures

        shares = workers if workers > 1 else 0
        failures = ray_failures(_first_failure, domain, str(data_dir), task_ids, shares)
    elif workers <= 1 or len(task_ids) < 2 * workers:
        failures = [_first_failure(domain, str(data_dir), task_ids)]
    else:
        shares_of = [list(task_ids[i::workers]) for i in range(workers)]
        with ProcessPoolExecutor(max_workers=workers) as pool:
            failures = list(
                pool.map(_first_failure, [domain] * workers, [str(data_dir)] * workers, shares_of)
            )
    failure = next((found for found in failures if found is not None), None)
    if failure is not None:
        raise GenerationError(f"{failure} (a generator bug; nothing was written)")
