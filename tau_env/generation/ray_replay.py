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
    play: Callable[[str, str, Sequence[str]], str | None],
    domain: str,
    data_dir: str,
    task_ids: Sequence[str],
    shares: int,
) -> list[str | None]:
    """``play(domain, data_dir, share)`` of each share of `task_ids`, as Ray tasks.

    Args:
        play: Plays a share of the tasks; the first failure described, or None.
        domain: The domain.
        data_dir: The data folder (a path every Ray worker reads).
        task_ids: The tasks to play.
        shares: How many Ray tasks share them (0: one per CPU of the cluster).
    """
    import ray as _ray

    ray: Any = _ray  # Ray's decorators and calls are only partly typed
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(include_dashboard=False, log_to_driver=False)
    try:
        count = shares or max(1, int(ray.cluster_resources().get("CPU", 1)))
        count = max(1, min(count, len(task_ids)))
        remote = ray.remote(play)
        parts = [list(task_ids[i::count]) for i in range(count)]
        found: list[str | None] = ray.get([remote.remote(domain, data_dir, p) for p in parts])
        return found
    finally:
        if started_here:
            ray.shutdown()
