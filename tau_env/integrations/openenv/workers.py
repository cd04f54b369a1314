"""Serving on one port from N processes, each WebSocket session on one process for its life.

A session is a WebSocket connection, and a connection lives on the process that accepted it,
so sessions need no routing once every worker accepts its own connections. Each worker gets a
listening socket of its own on the shared port (``SO_REUSEPORT``): the kernel spreads new
connections over the workers' accept queues by a hash of the client's address and port, so
N workers hold about the same number of sessions, and a worker that is busy never takes a
burst of connections from the others. (uvicorn's own ``--workers`` shares one accept queue:
the first worker awake takes whatever is queued, up to its whole backlog at once, which
leaves sessions unevenly spread when many connect together, as trainers do.) HTTP requests
are stateless in OpenEnv, so any worker serves them.

The supervisor (this process) binds the sockets before starting the workers, so connections
made while the workers import are queued, not refused; it prints the ready line once every
worker accepts connections, keeps the sockets, restarts a worker that dies on the same socket
(its sessions are lost, the others go on) and stops every worker on SIGINT or SIGTERM. The
workers share one session count (`SessionSlots`), so ``--max-sessions`` bounds the server, not
each process.

A worker told to stop closes its sessions and waits `STOP_GRACE` seconds for work in progress;
whatever still runs a few seconds after the signal (a model call of an LLM user, say) is
abandoned: the process exits then, so a stop never hangs
(`tau_env.integrations.openenv.worker_server`).
"""

from __future__ import annotations

import functools
import gc
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tau_env.errors import TauEnvError
from tau_env.integrations.openenv.limits import Limits, SessionSlots, shared_counts

__all__ = ["ServerSpec", "serve"]

CRASH_WINDOW = 10.0
"""A worker that dies within this many seconds of its start is not restarted: the server
stops (a worker that cannot start would otherwise be restarted forever)."""

STOP_GRACE = 2.0
"""Seconds a stopping worker waits for its connections and tasks to finish (uvicorn's
``timeout_graceful_shutdown``); it exits at the latest after
`tau_env.integrations.openenv.worker_server.STOP_DEADLINE`."""


@dataclass(frozen=True)
class ServerSpec:
    """What each worker serves, picklable so spawned workers can rebuild the app.

    Attributes:
        domain: Domain name or versioned id.
        options: `tau_env.chat.make_chat_env` arguments (``user``, ``mode``, ``data_dir``...).
        limits: Sessions (over all workers), message size and idle time.
        allowed_origins: Origins of web pages that may use the server (``--allow-origin``).
    """

    domain: str
    options: dict[str, Any] = field(default_factory=dict)
    limits: Limits = field(default_factory=Limits)
    allowed_origins: tuple[str, ...] = ()

    def app(self, slots: SessionSlots) -> Any:
        """The ASGI app of one worker."""
        from tau_env.integrations.openenv.server import create_server_app

        return create_server_app(
            self.domain,
            limits=self.limits,
            slots=slots,
            allowed_origins=self.allowed_origins,
            **self.options,
        )

    def uvicorn_options(self) -> dict[str, Any]:
        """The uvicorn settings of a worker.

        No per-message compression (the payloads are small JSON on a local link: deflate
        costs more CPU than it saves) and no access log (one line per HTTP request).
        uvicorn's default WebSocket implementation: its older `websockets` one measured up to
        ~20% less server CPU per episode, within this machine's run-to-run noise, and uvicorn
        0.54 deprecates it. A message over the limit is read and answered with an error frame
        (the session goes on) up to twice the limit; above that uvicorn closes the connection
        (1009, message too big) from the frame's header, before reading it: receiving and
        decoding a 15 MB message held the event loop for tens of milliseconds. A stop waits
        `STOP_GRACE` seconds for the connections to close.
        """
        return {
            "log_level": "warning",
            "access_log": False,
            "ws_per_message_deflate": False,
            "ws_max_size": 2 * self.limits.max_message_bytes,
            "timeout_graceful_shutdown": STOP_GRACE,
        }


def serve(spec: ServerSpec, host: str, port: int, workers: int = 1) -> int:
    """Serve `spec` on host:port with `workers` processes until SIGINT or SIGTERM.

    One worker serves in this process; more run as child processes (see the module). The
    ready line (``tau-env serve: http://...``, on stderr) is printed once every worker accepts
    connections.

    Returns:
        The exit status: 0 after a requested stop, non-zero when a worker could not start.

    Raises:
        TauEnvError: The address is taken or not a port, or `workers` < 1.
    """
    if workers < 1:
        raise TauEnvError(f"--workers must be >= 1, got {workers}")
    if not 0 <= port <= 65535:
        raise TauEnvError(f"--port must be a port number, 0 to 65535 (0: any free one), got {port}")
    sockets = bind(host, port, workers)
    bound = sockets[0].getsockname()[1]
    limits = spec.limits
    line = (
        f"tau-env serve: http://{host}:{bound} ({workers} worker{'s' * (workers > 1)}; "
        f"at most {limits.max_sessions} sessions, {limits.max_message_bytes:,}-byte messages, "
        f"{limits.idle_timeout:g} s idle)"
    )

    def announce() -> None:
        print(line, file=sys.stderr, flush=True)

    if workers == 1:
        run_worker(sockets[0], spec, None, 0, watch_parent=False, on_ready=announce)
        return 0
    return _Supervisor(spec, sockets, shared_counts(workers), announce).run()


def bind(host: str, port: int, count: int) -> list[socket.socket]:
    """`count` listening sockets on one port (``SO_REUSEPORT`` when more than one).

    Port 0 picks a free port for all of them. With ``SO_REUSEPORT`` the kernel would let a
    second server of the same user join the port silently, so a live listener is looked for
    first and refused like a taken port.

    Raises:
        TauEnvError: The port is taken.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    if count > 1 and port != 0 and _listening(host, port, family):
        raise TauEnvError(f"{host}:{port} is already in use (another server is listening)")
    sockets: list[socket.socket] = []
    try:
        for _ in range(count):
            sock = socket.socket(family, socket.SOCK_STREAM)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if count > 1:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            sock.bind((host, port))
            port = sock.getsockname()[1]
            sock.listen(2048)
            sock.set_inheritable(True)
    except OSError as error:
        for sock in sockets:
            sock.close()
        raise TauEnvError(f"cannot listen on {host}:{port}: {error}") from None
    return sockets


def _listening(host: str, port: int, family: int) -> bool:
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.settimeout(1.0)
        return probe.connect_ex((host, port)) == 0


def run_worker(
    sock: socket.socket,
    spec: ServerSpec,
    counts: Any,
    index: int,
    watch_parent: bool = True,
    on_ready: Callable[[], None] | None = None,
) -> None:
    """One worker: build the app and serve on `sock` until told to stop.

    `counts` is the session count shared with the other workers (None: the only worker);
    `on_ready` is called once the worker accepts connections.
    """
    from tau_env.integrations.openenv.worker_server import (
        ConnectionBudget,
        GuardedConfig,
        WorkerServer,
    )

    app = spec.app(SessionSlots(spec.limits.max_sessions, counts, index))
    # The imports (fastapi, openenv, mcp...) leave a large heap that never dies: move it out of
    # the collector's sight so the per-message garbage does not make full collections walk it.
    gc.freeze()
    # Hundreds of open sessions keep each episode's objects alive for seconds, long enough for
    # the default thresholds (700 allocations) to promote them and then walk them again in
    # older generations: at 1,000 sessions collections took a third of the server's CPU.
    # Collecting every 50,000 allocations cut its CPU per episode by 21-27% there (no change at
    # 64 sessions; benchmarks/README.md).
    gc.set_threshold(50_000, 20, 10)
    if watch_parent:
        _stop_with_parent()
    config = GuardedConfig(app, ConnectionBudget.of_this_process(), **spec.uvicorn_options())
    WorkerServer(config, on_ready).run(sockets=[sock])


def _stop_with_parent() -> None:
    """Stop this worker (as SIGTERM would) if the supervisor dies without stopping it."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _release(semaphore: Any) -> None:
    semaphore.release()


class _Supervisor:
    """Starts, watches, restarts and stops the worker processes; announces them ready."""

    def __init__(
        self,
        spec: ServerSpec,
        sockets: list[socket.socket],
        counts: Any,
        announce: Callable[[], None],
    ) -> None:
        self.spec = spec
        self.sockets = sockets
        self.counts = counts
        self.announce = announce
        self.context = multiprocessing.get_context("spawn")
        self.ready = self.context.Semaphore(0)  # released by each worker once it serves
        # What a worker calls once it serves: a partial pickles the semaphore itself (its bound
        # `release` would pickle the raw lock, which a spawned process cannot receive).
        self._ready_call = functools.partial(_release, self.ready)
        self.unready = len(sockets)  # workers yet to serve for the first time
        self.processes: list[Any] = []
        self.started: list[float] = []
        self.stopping = threading.Event()

    def run(self) -> int:
        previous = {sig: signal.signal(sig, self._stop) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            for index in range(len(self.sockets)):
                self.processes.append(self._start(index))
                self.started.append(time.monotonic())
            return self._watch()
        finally:
            self._stop_all()
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            for sock in self.sockets:
                sock.close()

    def _stop(self, signum: int, frame: Any) -> None:
        self.stopping.set()

    def _start(self, index: int) -> Any:
        process = self.context.Process(
            target=run_worker,
            args=(self.sockets[index], self.spec, self.counts, index, True, self._ready_call),
            name=f"tau-env-serve-{index}",
            daemon=False,
        )
        process.start()
        return process

    def _watch(self) -> int:
        while not self.stopping.wait(0.1 if self.unready else 0.5):
            while self.unready and self.ready.acquire(block=False):
                self.unready -= 1
                if not self.unready:
                    self.announce()
            for index, process in enumerate(self.processes):
                if process.exitcode is None:
                    continue
                lived = time.monotonic() - self.started[index]
                if lived < CRASH_WINDOW:
                    print(
                        f"tau-env serve: worker {index} exited ({process.exitcode}) "
                        f"{lived:.1f} s after it started; stopping",
                        file=sys.stderr,
                    )
                    return 1
                print(
                    f"tau-env serve: worker {index} exited ({process.exitcode}); "
                    "restarting it (its sessions are lost)",
                    file=sys.stderr,
                )
                with self.counts.get_lock():
                    self.counts[index] = 0
                self.processes[index] = self._start(index)
                self.started[index] = time.monotonic()
        return 0

    def _stop_all(self, grace: float = 10.0) -> None:
        for process in self.processes:
            if process.exitcode is None:
                process.terminate()
        deadline = time.monotonic() + grace
        for process in self.processes:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.exitcode is None:
                process.kill()
                process.join()
