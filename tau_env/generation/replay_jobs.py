"""The gold replays of a set, cut into jobs for workers (local processes or Ray tasks)."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["Job", "shared_jobs"]

Job = tuple[str, Sequence[str], int]
"""A share of the replays: (data folder, task ids, the whole set's size or 0)."""


def shared_jobs(jobs: Sequence[Job], count: int) -> list[Job]:
    """`jobs` shared among `count` workers, empty shares left out.

    With fewer jobs than workers, each job is cut into `count` shares of its tasks.
    """
    if len(jobs) < count:
        jobs = [(d, ids[i::count], n) for d, ids, n in jobs for i in range(count)]
    return [job for job in jobs if job[1]]
