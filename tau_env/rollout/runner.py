"""Running a run: create or resume it in the store, play what is missing, write as it finishes.

The driver owns the store. Episodes are handed to a backend (`LocalBackend` on this machine's
event loop, or `tau_env.rollout.ray_backend.RayBackend` on a Ray cluster), and every outcome is
written as it arrives, each episode in its own transaction: a killed run loses only the
episodes still in play, which resume plays again, and, because episodes are keyed by
(run, task, trial), a resume never duplicates one. An episode that cannot be stored (a value
with no JSON form) is logged as a failed attempt with the reason, and the run goes on. Resume
plays exactly the (task, trial) pairs without an episode, which includes those whose earlier
attempts hit infrastructure errors or crashes. When the run has a judge, the driver also judges
every stored episode whose NL assertions wait for one (`tau_env.rollout.judging`), new or old,
without replaying it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from tau_env.blocking import blocking
from tau_env.domain import Domain
from tau_env.errors import TauEnvError
from tau_env.grading.nl_assertions import Judge
from tau_env.rollout.collector import spaced_collections
from tau_env.rollout.config import RunConfig
from tau_env.rollout.judging import build_judge, judge_episode
from tau_env.rollout.plan import Unit, pending_units
from tau_env.rollout.preflight import check_run, stored_config
from tau_env.rollout.provenance import domain_of, run_fingerprint, run_versions
from tau_env.rollout.strict_judging import judge_strictly, needs_strict_judge
from tau_env.rollout.worker import EpisodeWorker, Outcome
from tau_env.store.codec import UnstorableRecord, unstorable_failure
from tau_env.store.records import EpisodeRecord, FailureRecord, RunRecord
from tau_env.store.sqlite import ResultStore

__all__ = [
    "Backend",
    "LocalBackend",
    "RunSummary",
    "arun",
    "check_counts",
    "create_run",
    "load_run",
    "run",
]

Sink = Callable[[Outcome], None]
"""Receives each outcome as soon as it exists (the driver writes it to the store)."""

JudgingStep = Callable[[ResultStore, EpisodeRecord, Domain, Judge], Coroutine[Any, Any, bool]]
"""`judge_episode` or `judge_strictly`: rule on one stored episode (True: the ruling is stored)."""


class Backend(Protocol):
    """Plays units of a run and hands every outcome to a sink, in completion order."""

    async def execute(
        self, config: RunConfig, versions: dict[str, str], units: Sequence[Unit], sink: Sink
    ) -> None:
        """Play every unit once."""
        ...


def check_counts(**counts: int | None) -> None:
    """Refuse a count below 1 (None, where allowed, means no limit).

    Raises:
        ValueError: Naming the first such count and its value.
    """
    for name, value in counts.items():
        if value is not None and value < 1:
            raise ValueError(f"{name} must be >= 1, actually: {value}")


class LocalBackend:
    """Plays episodes concurrently on this process's event loop.

    Args:
        concurrency: Episodes in flight at once.
        llm_concurrency: Participant decisions awaited at once (model calls); None: no limit
            beyond `concurrency`.
    """

    def __init__(self, concurrency: int = 8, llm_concurrency: int | None = None) -> None:
        check_counts(concurrency=concurrency, llm_concurrency=llm_concurrency)
        self.concurrency = concurrency
        self.llm_concurrency = llm_concurrency

    async def execute(
        self, config: RunConfig, versions: dict[str, str], units: Sequence[Unit], sink: Sink
    ) -> None:
        """Play every unit with at most `concurrency` in flight.

        Raises:
            ModelAccessError: A provider refused access; the episodes in flight are cancelled
                (nothing of theirs is recorded) and no other starts.
        """
        gate = asyncio.Semaphore(self.llm_concurrency) if self.llm_concurrency else None
        worker = EpisodeWorker(config, versions, gate)
        queue = iter(units)

        async def lane() -> None:
            for unit in queue:  # lanes share one iterator: each unit is taken exactly once
                sink(await worker.play(unit))

        lanes = min(self.concurrency, len(units))
        with spaced_collections():  # see `tau_env.rollout.collector`
            await _run_lanes([lane() for _ in range(lanes)])


async def _run_lanes(lanes: Sequence[Coroutine[Any, Any, None]]) -> None:
    """Run coroutines concurrently; the first that raises cancels the others, then re-raises."""
    tasks = [asyncio.ensure_future(lane) for lane in lanes]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    for task in done:
        if not task.cancelled() and task.exception() is not None:
            raise task.exception()  # type: ignore[misc]


@dataclass(frozen=True)
class RunSummary:
    """What one invocation of `run` did.

    Attributes:
        run_id: The run.
        planned: Episodes of the whole run (tasks x trials).
        skipped: Episodes already in the store before this invocation.
        finished: Episodes finished and written by this invocation.
        failed: Failed attempts logged by this invocation (judge failures included).
        seconds: Wall time of this invocation.
        judged: Episodes whose NL assertions this invocation judged.
        unjudged: Episodes still waiting for a judge when it ended (no reward yet).
    """

    run_id: str
    planned: int
    skipped: int
    finished: int
    failed: int
    seconds: float
    judged: int = 0
    unjudged: int = 0

    @property
    def complete(self) -> bool:
        """Every planned episode is in the store."""
        return self.skipped + self.finished == self.planned


def create_run(store: ResultStore, config: RunConfig, *, check: bool = True) -> RunRecord:
    """Record a new run in the store, once it is known to be able to start.

    The store keeps the configuration with the secrets of its URLs redacted
    (`tau_env.rollout.preflight.stored_config`).

    Args:
        store: Receives the run.
        config: The run.
        check: Run `tau_env.rollout.preflight.check_run` first (False: the caller did).

    Raises:
        TauEnvError: The run cannot start (nothing is written).
        RunExists: The run id is taken.
    """
    if check:
        check_run(config)
    stored = stored_config(config)
    record = RunRecord(
        run_id=config.run_id,
        created_at=time.time(),
        domain=config.domain,
        config=stored.model_dump(mode="json"),
        fingerprint=run_fingerprint(stored),
        versions=run_versions(config),
    )
    store.create_run(record)
    return record


def load_run(store: ResultStore, run_id: str | None = None) -> RunConfig:
    """A stored run's configuration, checked against the current code and data.

    Raises:
        UnknownRun: No such run.
        TauEnvError: The tasks, domain version, policy or limits changed since the run was
            created, so new episodes would not be comparable with the stored ones.
    """
    record = store.run(run_id)
    config = RunConfig.model_validate(record.config)
    now = run_fingerprint(config)
    if now != record.fingerprint:
        raise TauEnvError(
            f"run {record.run_id!r} was created on other tasks, policy, domain version or "
            f"limits (fingerprint {record.fingerprint}, now {now}); its episodes would not be "
            "comparable: start a new run instead"
        )
    return config


async def arun(
    store: ResultStore,
    config: RunConfig,
    *,
    backend: Backend | None = None,
    on_outcome: Callable[[Outcome], None] | None = None,
    on_start: Callable[[int, int], None] | None = None,
    play: bool = True,
) -> RunSummary:
    """Play every episode of a stored run that has none yet, writing each as it finishes.

    With a judge in the configuration, every stored episode that waits for one (played now or
    before) is judged too, on this event loop, while the others play; under the strict grading
    also the NL assertions a task lists outside its basis, for the strict reading
    (`tau_env.rollout.strict_judging`).

    Args:
        store: Holds the run (see `create_run`); receives the outcomes.
        config: The run's configuration.
        backend: Where episodes run (default: `LocalBackend()`).
        on_outcome: Called after each outcome is written (progress display).
        on_start: Called once with (episodes to play, episodes already done).
        play: False: play nothing, only judge (a run imported from a results file, whose
            participants tau_env cannot replay).
    """
    started = time.monotonic()
    done = store.completed(config.run_id)
    units = pending_units(config, done) if play else []
    if on_start is not None:
        on_start(len(units), len(done))
    counts = {"finished": 0, "failed": 0, "judged": 0}
    judge = build_judge(config.judge, store.path) if config.judge is not None else None
    judge_tasks: list[asyncio.Task[None]] = []

    async def counted(verdict: Coroutine[Any, Any, bool]) -> None:
        counts["judged" if await verdict else "failed"] += 1

    def judge_later(record: EpisodeRecord, judging: JudgingStep) -> None:
        assert judge is not None
        judge_tasks.append(
            asyncio.create_task(counted(judging(store, record, domain_of(config), judge)))
        )

    def needs_strict(record: EpisodeRecord) -> bool:
        return needs_strict_judge(config, record, domain_of(config))

    if judge is not None:
        for record in store.unjudged(config.run_id):
            judge_later(record, judge_episode)
        if config.grading == "strict":  # NL assertions outside the basis, for the reading
            for record in store.episodes(config.run_id):
                if needs_strict(record):
                    judge_later(record, judge_strictly)

    def sink(outcome: Outcome) -> None:
        if isinstance(outcome, EpisodeRecord):
            try:
                written = store.add_episode(outcome)  # its own transaction
            except UnstorableRecord as error:  # this episode only; the run goes on
                outcome = unstorable_failure(outcome, error)
            else:
                counts["finished"] += int(written)
                if written and judge is not None and outcome.reward is None:
                    judge_later(outcome, judge_episode)
                elif written and judge is not None and needs_strict(outcome):
                    judge_later(outcome, judge_strictly)
        if isinstance(outcome, FailureRecord):
            store.add_failure(outcome)
            counts["failed"] += 1
        if on_outcome is not None:
            on_outcome(outcome)

    if units:
        versions = run_versions(config)
        await (backend or LocalBackend()).execute(config, versions, units, sink)
    await asyncio.gather(*judge_tasks)
    return RunSummary(
        run_id=config.run_id,
        planned=config.episodes,
        skipped=len(done),
        finished=counts["finished"],
        failed=counts["failed"],
        seconds=time.monotonic() - started,
        judged=counts["judged"],
        unjudged=store.unjudged_count(config.run_id),
    )


run = blocking(arun)
"""`arun` on a fresh event loop, for callers that are not async (same arguments, same result)."""
