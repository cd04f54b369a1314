"""An audit shared among processes: each plays a contiguous share of the tasks.

Every (task, player, seed) episode is seeded on its own and the probes and the scripted
user keep no state between episodes that changes what they do (only caches of what they
read), so the shares' outcomes, put back in task order, are the outcomes of one process.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from tau_env.audit.report import AuditReport, TaskAudit

__all__ = ["shared_audit"]


def _share(
    audit: Callable[..., AuditReport], options: Mapping[str, Any], task_ids: Sequence[str]
) -> list[TaskAudit]:
    """One process's share: the audit of these tasks, in this process."""
    return audit(**options, task_ids=task_ids).tasks


def shared_audit(
    audit: Callable[..., AuditReport],
    options: Mapping[str, Any],
    task_ids: Sequence[str],
    workers: int,
    on_task: Callable[[int, int], None] | None = None,
) -> list[TaskAudit]:
    """The outcomes of `task_ids` (in their order), played by `workers` processes.

    Args:
        audit: `tau_env.audit.audit` (passed in: this module is imported by it).
        options: Its keywords (the data, grading, probes and seeds).
        task_ids: The tasks.
        workers: Processes; each loads the set and plays a contiguous share.
        on_task: Called with (tasks done, tasks in all) as each share ends.
    """
    count = min(workers, len(task_ids))
    bounds = [len(task_ids) * i // count for i in range(count + 1)]
    shares = [list(task_ids[bounds[i] : bounds[i + 1]]) for i in range(count)]
    found: list[list[TaskAudit]] = [[] for _ in shares]
    done = 0
    with ProcessPoolExecutor(max_workers=count) as pool:
        futures = {pool.submit(_share, audit, options, share): i for i, share in enumerate(shares)}
        for future in as_completed(futures):
            found[futures[future]] = future.result()
            done += len(found[futures[future]])
            if on_task is not None:
                on_task(done, len(task_ids))
    return [task for share in found for task in share]
