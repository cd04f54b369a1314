"""`RayBackend`: the same runner, with episodes spread over a Ray cluster.

Each actor is an async Ray actor holding one `EpisodeWorker` (so many episodes interleave on
its event loop while they wait on models). The driver keeps at most ``concurrency`` episodes in
flight over the whole cluster and writes every outcome to its own SQLite store as it arrives:
the store, its transactions and resume work exactly as with the local backend. A single
`Limiter` actor bounds the model calls in flight across every actor and node
(``llm_concurrency``), because per-process limits do not add up across machines.

The cluster is the one ``ray.init`` finds: ``RAY_ADDRESS`` when set, else a local instance
started for the run (and stopped after it). Workers import tau_env and the participants from
their own environment; pass ``init_kwargs={"runtime_env": ...}`` to ship code to a cluster.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

import ray as _ray

from tau_env.errors import ModelAccessError
from tau_env.rollout.config import RunConfig
from tau_env.rollout.plan import Unit
from tau_env.rollout.runner import Sink, check_counts
from tau_env.rollout.worker import EpisodeWorker, decode_outcome, encode_outcome

__all__ = ["RayBackend"]

ray: Any = _ray  # Ray's decorators and calls are only partly typed; used dynamically here

_EPISODES_PER_ACTOR = 16
"""Default episodes in flight per actor (each actor is a process; episodes are I/O bound)."""


class Limiter:
    """A cluster-wide semaphore: at most `limit` holders at once (run as a Ray actor)."""

    def __init__(self, limit: int) -> None:
        self._slots = asyncio.Semaphore(limit)
        self._holders = 0
        self._peak = 0

    async def acquire(self) -> None:
        """Wait for a free slot and take it."""
        await self._slots.acquire()
        self._holders += 1
        self._peak = max(self._peak, self._holders)

    async def release(self) -> None:
        """Give a slot back."""
        self._holders -= 1
        self._slots.release()

    async def peak(self) -> int:
        """The most slots ever held at once (to check a run stayed within the limit)."""
        return self._peak


class _LimiterGate(AbstractAsyncContextManager[None]):
    """Holds one slot of a `Limiter` actor for the duration of a model call."""

    def __init__(self, limiter: Any) -> None:
        self._limiter = limiter

    async def __aenter__(self) -> None:
        await self._limiter.acquire.remote()

    async def __aexit__(self, *exc: object) -> None:
        await self._limiter.release.remote()


class RolloutActor:
    """Plays units of one run inside a Ray worker process (run as an async Ray actor)."""

    def __init__(self, config: dict[str, Any], versions: dict[str, str], limiter: Any) -> None:
        gate = _LimiterGate(limiter) if limiter is not None else None
        self._worker = EpisodeWorker(RunConfig.model_validate(config), versions, gate)

    async def play(self, task_id: str, trial: int, seed: int) -> tuple[str, str]:
        """Play a unit; returns (record kind, record JSON).

        A provider that refused access returns ("access", the error's message) instead: the
        driver raises it and stops the run.
        """
        try:
            outcome = await self._worker.play(Unit(task_id, trial, seed))
        except ModelAccessError as error:
            return "access", str(error)
        return encode_outcome(outcome)


class RayBackend:
    """Plays episodes on Ray actors; outcomes come back to the driver's sink.

    Args:
        concurrency: Episodes in flight over the whole cluster.
        llm_concurrency: Participant decisions (model calls) in flight over the whole cluster;
            None: no limit beyond `concurrency`.
        actors: Number of actors (default: enough for `concurrency` at 16 episodes each, at
            most one per CPU of the cluster).
        address: Cluster address (default: ``RAY_ADDRESS``, else a local instance).
        init_kwargs: Further ``ray.init`` arguments (``runtime_env``, ``num_cpus``...).
    """

    def __init__(
        self,
        concurrency: int = 8,
        llm_concurrency: int | None = None,
        *,
        actors: int | None = None,
        address: str | None = None,
        init_kwargs: dict[str, Any] | None = None,
    ) -> None:
        check_counts(concurrency=concurrency, llm_concurrency=llm_concurrency, actors=actors)
        self.concurrency = concurrency
        self.llm_concurrency = llm_concurrency
        self.actors = actors
        self.address = address
        self.init_kwargs = dict(init_kwargs or {})

    async def execute(
        self, config: RunConfig, versions: dict[str, str], units: Sequence[Unit], sink: Sink
    ) -> None:
        """Play every unit once, at most `concurrency` in flight.

        Raises:
            TauEnvError: A participant or the mode cannot be built (checked on the driver
                before any actor starts, so the message is tau_env's, not a remote traceback).
        """
        EpisodeWorker(config, versions)  # fail fast, here, on a bad participant or mode
        started_here = not ray.is_initialized()
        if started_here:
            kwargs = {"include_dashboard": False, "log_to_driver": False, **self.init_kwargs}
            ray.init(address=self.address, **kwargs)
        try:
            await self._execute(config, versions, units, sink)
        finally:
            if started_here:
                ray.shutdown()

    async def _execute(
        self, config: RunConfig, versions: dict[str, str], units: Sequence[Unit], sink: Sink
    ) -> None:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        count = self.actors or min(cpus, math.ceil(self.concurrency / _EPISODES_PER_ACTOR))
        per_actor = math.ceil(self.concurrency / count)
        limiter = None
        if self.llm_concurrency is not None:
            limiter = (
                ray.remote(Limiter).options(max_concurrency=100_000).remote(self.llm_concurrency)
            )
        payload = config.model_dump(mode="json")
        actor_class = ray.remote(RolloutActor).options(max_concurrency=per_actor, num_cpus=0)
        actors = [actor_class.remote(payload, versions, limiter) for _ in range(count)]
        try:
            await self._dispatch(actors, units, sink)
        finally:
            for actor in actors:
                ray.kill(actor)
            if limiter is not None:
                ray.kill(limiter)

    async def _dispatch(self, actors: list[Any], units: Sequence[Unit], sink: Sink) -> None:
        queue = iter(units)
        in_flight: set[asyncio.Future[Any]] = set()
        turn = 0

        def submit() -> bool:
            nonlocal turn
            unit = next(queue, None)
            if unit is None:
                return False
            actor = actors[turn % len(actors)]
            turn += 1
            ref = actor.play.remote(unit.task_id, unit.trial, unit.seed)
            in_flight.add(asyncio.wrap_future(ref.future()))
            return True

        while len(in_flight) < self.concurrency and submit():
            pass
        while in_flight:
            done, _ = await asyncio.wait(in_flight, return_when=asyncio.FIRST_COMPLETED)
            for future in done:
                in_flight.discard(future)
                kind, body = future.result()
                if kind == "access":
                    raise ModelAccessError(body)
                sink(decode_outcome(kind, body))
                submit()
