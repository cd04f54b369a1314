"""`ProcessBackend`: the local runner on several cores, one event loop per worker process.

One event loop is one core: at a few hundred model calls a second, the CPU of the env steps,
the grading and the HTTP client saturates it long before the model server does. This backend
starts ``workers`` processes on this machine, each an `EpisodeWorker` on its own event loop,
and hands them units one at a time (at most ``concurrency`` episodes in flight over all of
them, spread evenly). Outcomes come back as JSON over pipes and the driver writes them to its
store, as with the other backends: one writer, the same transactions, the same resume.

A `ModelAccessError` in any worker stops the run (every worker is stopped, the error is
raised by the driver); a worker that dies is an error of the run, not of an episode.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import multiprocessing
import signal
import time
import traceback
from collections.abc import Sequence
from multiprocessing.connection import Connection
from typing import Any

from tau_env.errors import ModelAccessError, TauEnvError
from tau_env.rollout.collector import spaced_collections
from tau_env.rollout.config import RunConfig
from tau_env.rollout.plan import Unit
from tau_env.rollout.runner import Sink, check_counts
from tau_env.rollout.worker import EpisodeWorker, decode_outcome, encode_outcome

__all__ = ["ProcessBackend"]


class ProcessBackend:
    """Plays episodes in worker processes on this machine; outcomes go to the driver's sink.

    Args:
        workers: Worker processes (one event loop, about one core, each).
        concurrency: Episodes in flight over all workers, spread evenly.
        llm_concurrency: Participant decisions (model calls) in flight over all workers,
            split evenly between them (rounded up); None: no limit beyond `concurrency`.
    """

    def __init__(
        self, workers: int = 2, concurrency: int = 8, llm_concurrency: int | None = None
    ) -> None:
        check_counts(workers=workers, concurrency=concurrency, llm_concurrency=llm_concurrency)
        self.workers = workers
        self.concurrency = concurrency
        self.llm_concurrency = llm_concurrency
        self.startup: dict[str, float] = {}
        """Of the last `execute`: ``seconds`` until every worker was ready to play (started,
        imported, built its env) and ``cpu_seconds`` the workers spent getting there. Episodes
        start only then; benchmarks subtract it to see the steady state."""

    async def execute(
        self, config: RunConfig, versions: dict[str, str], units: Sequence[Unit], sink: Sink
    ) -> None:
        """Play every unit once.

        Raises:
            TauEnvError: A participant or the mode cannot be built (checked here first), or
                a worker process died.
            ModelAccessError: A provider refused access; the run stops.
        """
        EpisodeWorker(config, versions)  # fail fast, here, on a bad participant or mode
        count = min(self.workers, max(1, len(units)), self.concurrency)
        share, extra = divmod(self.concurrency, count)
        lanes = [share + (index < extra) for index in range(count)]
        llm_lanes = None
        if self.llm_concurrency is not None:
            llm_lanes = math.ceil(self.llm_concurrency / count)
        context = multiprocessing.get_context("spawn")  # a clean interpreter: no inherited loop
        payload = config.model_dump(mode="json")
        pipes = [context.Pipe() for _ in range(count)]
        processes = [
            context.Process(
                target=_worker_main,
                args=(child, payload, versions, llm_lanes),
                name=f"tau-env-worker-{index}",
                daemon=True,
            )
            for index, (_, child) in enumerate(pipes)
        ]
        for process in processes:
            process.start()
        for _, child in pipes:
            child.close()
        started = time.perf_counter()
        try:
            connections = [parent for parent, _ in pipes]
            cpu = await _wait_ready(connections)
            self.startup = {"seconds": time.perf_counter() - started, "cpu_seconds": cpu}
            await _dispatch(connections, lanes, units, sink)
        finally:
            for (parent, _), process in zip(pipes, processes, strict=True):
                _send(parent, ("stop",))
                process.join(timeout=5)
                if process.is_alive():
                    process.terminate()
                    process.join(timeout=5)
                parent.close()


def _send(connection: Connection, message: tuple[Any, ...]) -> None:
    with contextlib.suppress(OSError, EOFError):  # the worker is gone already
        connection.send(message)


async def _wait_ready(connections: list[Connection]) -> float:
    """Wait until every worker says it is ready; the CPU seconds they spent starting."""
    loop = asyncio.get_running_loop()
    cpu = 0.0
    for index, connection in enumerate(connections):
        message = await loop.run_in_executor(None, _receive, connection)
        if message[0] == "crash":
            raise TauEnvError(f"worker process {index} failed to start: {message[1]}")
        if message[0] != "ready":
            raise TauEnvError(f"worker process {index} died while starting")
        cpu += float(message[1])
    return cpu


def _receive(connection: Connection) -> tuple[Any, ...]:
    try:
        message: tuple[Any, ...] = connection.recv()
    except (EOFError, OSError):
        return ("gone",)
    return message


async def _dispatch(
    connections: list[Connection], lanes: list[int], units: Sequence[Unit], sink: Sink
) -> None:
    """Feed units to workers (at most ``lanes[i]`` in flight in worker i); sink the outcomes."""
    loop = asyncio.get_running_loop()
    inbox: asyncio.Queue[tuple[int, Any]] = asyncio.Queue()

    def readable(index: int) -> None:
        connection = connections[index]
        try:
            while connection.poll():
                inbox.put_nowait((index, connection.recv()))
        except (EOFError, OSError):
            loop.remove_reader(connection.fileno())
            inbox.put_nowait((index, ("gone",)))

    for index, connection in enumerate(connections):
        loop.add_reader(connection.fileno(), readable, index)
    queue = iter(units)
    in_flight = [0] * len(connections)

    def submit(index: int) -> None:
        unit = next(queue, None)
        if unit is not None:
            _send(connections[index], ("unit", unit.task_id, unit.trial, unit.seed))
            in_flight[index] += 1

    try:
        for index, share in enumerate(lanes):
            for _ in range(share):
                submit(index)
        while any(in_flight):
            index, message = await inbox.get()
            kind = message[0]
            if kind in ("episode", "failure"):
                sink(decode_outcome(kind, message[1]))
            elif kind == "access":
                raise ModelAccessError(message[1])
            elif kind == "crash":
                raise TauEnvError(f"worker process {index} failed: {message[1]}")
            else:
                raise TauEnvError(f"worker process {index} died with episodes in flight")
            in_flight[index] -= 1
            submit(index)
    finally:
        for connection in connections:
            loop.remove_reader(connection.fileno())


def _worker_main(
    connection: Connection,
    payload: dict[str, Any],
    versions: dict[str, str],
    llm_lanes: int | None,
) -> None:
    """A worker process: play the units the driver sends until it says stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the driver's to handle
    try:
        with spaced_collections():
            asyncio.run(_serve(connection, payload, versions, llm_lanes))
    except Exception:
        _send(connection, ("crash", traceback.format_exc(limit=8)))
    finally:
        connection.close()


async def _serve(
    connection: Connection,
    payload: dict[str, Any],
    versions: dict[str, str],
    llm_lanes: int | None,
) -> None:
    gate = asyncio.Semaphore(llm_lanes) if llm_lanes else None
    worker = EpisodeWorker(RunConfig.model_validate(payload), versions, gate)
    _send(connection, ("ready", time.process_time()))
    loop = asyncio.get_running_loop()
    inbox: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()

    def readable() -> None:
        try:
            while connection.poll():
                inbox.put_nowait(connection.recv())
        except (EOFError, OSError):
            loop.remove_reader(connection.fileno())
            inbox.put_nowait(("stop",))

    async def play(unit: Unit) -> None:
        try:
            outcome = await worker.play(unit)
        except ModelAccessError as error:
            _send(connection, ("access", str(error)))
            return
        _send(connection, encode_outcome(outcome))

    loop.add_reader(connection.fileno(), readable)
    playing: set[asyncio.Task[None]] = set()
    while True:
        message = await inbox.get()
        if message[0] != "unit":
            break
        task = asyncio.create_task(play(Unit(message[1], message[2], message[3])))
        playing.add(task)
        task.add_done_callback(playing.discard)
    loop.remove_reader(connection.fileno())
    for task in list(playing):
        task.cancel()
    await asyncio.gather(*playing, return_exceptions=True)
