"""The gold replays of ``tau-env generate --backend ray``, shared over Ray tasks.

The cluster is the one ``ray.init`` finds: ``RAY_ADDRESS`` when set, else a local instance
started for the replays and stopped after them. Each Ray task loads the written set from the
staging folder inside ``--out`` (exactly as ``--data-dir`` loads it) and plays its share of the
tasks (`tau_env.generation.verify`); on a cluster of several machines that folder must be on a
file system every node reads. The set written does not depend on the backend.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["ray_failures"]


def ray_failures(
    play: Callable[[str, str, Sequence[str], int], str | None],
    domain: str,
    jobs: Sequence[tuple[str, Sequence[str], int]],
    shares: int,
) -> list[str | None]:
    """``play(domain, folder, ids, task_count)`` of each job, as Ray tasks.

    Args:
        play: Plays some tasks of a data folder; the first failure described, or None.
        domain: The domain.
        jobs: (data folder, task ids, the whole set's size or 0) per job; a folder must be
            one every Ray worker reads.
        shares: How many Ray tasks at least (0: one per CPU of the cluster); a job is cut
            into shares of its tasks when there are fewer jobs.
    """
    import ray as _ray

    from tau_env.generation.replay_jobs import shared_jobs

    ray: Any = _ray  # Ray's decorators and calls are only partly typed
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(include_dashboard=False, log_to_driver=False)
    try:
        count = shares or max(1, int(ray.cluster_resources().get("CPU", 1)))
        remote = ray.remote(play)
        found: list[str | None] = ray.get(
            [remote.remote(domain, d, list(ids), n) for d, ids, n in shared_jobs(jobs, count)]
        )
        return found
    finally:
        if started_here:
            ray.shutdown()
