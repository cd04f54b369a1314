"""Gold replay of a written task set, loaded exactly as ``--data-dir`` loads it.

Each task is played by `tau_env.generation.gold_replay.GoldReplay`: the oracle agent and the
gold user through the env's conversation, world and grader, without the AEC loop (a test
shows it grades every built-in task as ``run_episode(env, OracleAgent, GoldUser)`` does).

A generator's own checks of a task (`Adapter.check`: telecom's composer) are made in the
same pass, on the worlds the task's replay built.

With ``workers > 1`` the tasks are shared among worker processes (each loads the folder and
plays its share); the set written does not depend on it, only the time does. A set larger
than `CHUNK` is played a chunk at a time, each chunk a data folder of its own.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from pathlib import Path

from tau_env.domain import clear_domain_cache, load_domain
from tau_env.errors import DataError
from tau_env.generation.replay_jobs import Job, shared_jobs
from tau_env.heap_collector import collector_paused, heap_frozen

__all__ = ["VERIFY_RETRIEVAL", "GenerationError", "verify_folder"]

VERIFY_RETRIEVAL = {"banking_knowledge": "no_knowledge"}
"""The retrieval variant a domain with a knowledge base is verified with (gold plans never
search, so the cheapest variant)."""


class GenerationError(DataError):
    """A generated task does not reach reward 1.0 by its own gold replay (a generator bug)."""


CHUNK = 25_000
"""The most tasks one load of the set parses at once: a larger set is played in chunks.

Each chunk's load parses the world again (about 13 CPU-s for the 58,596 customers of a
100,000-task airline set), so chunks are large: at most four for the largest set."""

_CHUNKS = ".chunks"  # the chunk folders, inside the data folder, removed once played


def _first_failure(
    domain: str, data_dir: str, task_ids: Sequence[str], task_count: int = 0
) -> str | None:
    """Play `task_ids` (`GoldReplay`); the first that does not reach 1.0, described, or None.

    A task that does is then checked by its generator (`Adapter.check`, if any), on the
    worlds its replay built: the first it refuses is described too.

    `task_count`: the whole set's size, when `data_dir` holds a chunk of it (0: the folder
    holds the whole set); each task is played as the whole set's env plays it.
    """
    from tau_env.generation.gold_replay import GoldReplay
    from tau_env.generation.request import adapter_for

    with ExitStack() as frozen:
        with collector_paused():  # the loaded set all lives on: collections would find nothing
            loaded = load_domain(domain, data_dir, retrieval=VERIFY_RETRIEVAL.get(domain))
            replay = GoldReplay(loaded, seed=0, task_count=task_count or None)
            check = adapter_for(domain).check
            # Hidden before the collector is back: no collection walks the loaded set (nor
            # the caller's heap) while the tasks are played.
            frozen.enter_context(heap_frozen())
        try:
            for task_id in task_ids:
                task = loaded.task(task_id)
                reward = replay.grade(task).reward
                if reward != 1.0:
                    return f"{domain} task {task_id}: gold replay scored {reward}, not 1.0"
                refused = None if check is None else check(loaded, task)
                if refused is not None:
                    return f"{domain} task {task_id}: refused by its generator: {refused}"
                loaded.release(task)  # memory of one task, not of the set
        finally:
            if task_count:
                clear_domain_cache()  # the chunk's parsed tasks go with it
    return None


def _chunks(domain: str, data_dir: Path, task_ids: Sequence[str], size: int) -> list[Path] | None:
    """The set cut into data folders of `size` tasks each, or None when it cannot be.

    Each chunk folder holds links to every file of the set but the tasks and splits, its
    share of the lines of ``tasks.json`` (one task a line, as `render.write_tasks_text`
    writes it, byte for byte) and a ``base`` split of their ids: the loader reads it as it
    reads any ``--data-dir``. None when ``tasks.json`` is not laid out a task a line (a
    domain writing its tasks its own way is verified whole).
    """
    folder = data_dir / "domains" / domain
    tasks_file = folder / "tasks.json"
    if not tasks_file.is_file():
        return None
    with tasks_file.open("rb") as lines:
        if lines.readline() != b"[\n":
            return None
        chunks: list[Path] = []
        for start in range(0, len(task_ids), size):
            ids = task_ids[start : start + size]
            texts = [lines.readline().rstrip(b"\n").removesuffix(b",") for _ in ids]
            for task_id, text in zip(ids, texts, strict=True):
                if b'"id": ' + json.dumps(task_id).encode() not in text[:200]:
                    return None
            chunk = data_dir / _CHUNKS / str(len(chunks))
            target = chunk / "domains" / domain
            target.mkdir(parents=True)
            for item in folder.iterdir():
                if item.name not in ("tasks.json", "split_tasks.json"):
                    (target / item.name).symlink_to(item.resolve())
            (target / "tasks.json").write_bytes(b"[\n" + b",\n".join(texts) + b"\n]\n")
            split = {"base": list(ids)}
            (target / "split_tasks.json").write_text(json.dumps(split), encoding="utf-8")
            chunks.append(chunk)
    return chunks


def verify_folder(
    domain: str,
    data_dir: Path,
    task_ids: Sequence[str],
    workers: int = 1,
    backend: str = "local",
    chunk: int = CHUNK,
) -> None:
    """Play every task with the oracle agent and the gold user; each must reach reward 1.0.

    A set of more than `chunk` tasks is loaded and played a chunk at a time (`_chunks`), so
    the parsed tasks held at once do not grow with the set.

    Args:
        domain: The domain.
        data_dir: The data folder holding ``domains/<domain>/`` (chunks are written beside).
        task_ids: The tasks to play, in the order of the set's task file.
        workers: Processes sharing the tasks (1: this process); with Ray, the Ray tasks
            (1: one per CPU of the cluster).
        backend: ``"local"`` (this machine's processes) or ``"ray"``
            (`tau_env.generation.ray_replay`).
        chunk: The most tasks loaded at once.

    Raises:
        GenerationError: Names the first task that does not, and its reward.
    """
    try:
        folders = _chunks(domain, data_dir, task_ids, chunk) if len(task_ids) > chunk else None
        failures = _played(domain, data_dir, task_ids, workers, backend, chunk, folders)
    finally:
        shutil.rmtree(data_dir / _CHUNKS, ignore_errors=True)
    failure = next((found for found in failures if found is not None), None)
    if failure is not None:
        raise GenerationError(f"{failure} (a generator bug; nothing was written)")


def _played(
    domain: str,
    data_dir: Path,
    task_ids: Sequence[str],
    workers: int,
    backend: str,
    chunk: int,
    folders: list[Path] | None,
) -> list[str | None]:
    """`_first_failure` of every task, in the chunk folders (if any) or the set's folder."""
    failures: list[str | None]
    jobs: list[Job]
    if folders is None:
        jobs = [(str(data_dir), list(task_ids), 0)]
    else:
        jobs = [
            (str(path), list(task_ids[i * chunk : (i + 1) * chunk]), len(task_ids))
            for i, path in enumerate(folders)
        ]
    jobs = shared_jobs(jobs, max(workers, 1))
    if backend == "ray":
        from tau_env.generation.ray_replay import ray_failures

        failures = ray_failures(_first_failure, domain, jobs, workers if workers > 1 else 0)
    elif workers <= 1 or len(task_ids) < 2 * workers:
        failures = []
        for folder, ids, whole in jobs:  # up to the first failure
            failures.append(_first_failure(domain, folder, ids, whole))
            if failures[-1] is not None:
                break
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            failures = list(
                pool.map(
                    _first_failure,
                    [domain] * len(jobs),
                    [d for d, _, _ in jobs],
                    [ids for _, ids, _ in jobs],
                    [n for _, _, n in jobs],
                )
            )
    return failures
