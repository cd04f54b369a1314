"""A worker's uvicorn server: idle connections timed out, readiness told, a bounded stop.

Connections that send no request are timed out (and dropped first when file descriptors run
short), readiness is signalled, and a stop never hangs.

uvicorn waits for a request's headers as long as the client keeps its connection open, and each
connection holds a file descriptor. With ``ulimit -n 1024``, 1,100 connections that sent the
start of a request and nothing more took every descriptor: the server stopped accepting
connections for good. `GuardedH11Protocol` (uvicorn's h11 protocol, which ``serve`` uses) adds:

- **A request timeout.** A connection must send a whole request (headers and body) within
  `REQUEST_TIMEOUT` seconds of opening, or of the previous response on a kept-alive
  connection; else it is closed. (An idle kept-alive connection is closed sooner, by uvicorn's
  own 5 s keep-alive timeout.) A WebSocket is past this once its handshake is in.
- **Room for new connections.** A worker holds at most `ConnectionBudget.limit` connections (its
  descriptor limit, less those open when it starts serving and a reserve for everything else:
  files, the LLM user's own connections). When a new connection would pass it, the connection
  that has waited longest for its request is closed: a flood of unfinished requests then costs
  itself one connection per new one, and a client that sends its request at once is served.
  (While every descriptor is taken, the event loop retries accepting once a second.)

`WorkerServer` calls back once it accepts connections (the ``serve`` ready line waits for it)
and, on SIGINT or SIGTERM, exits the process after `STOP_DEADLINE` seconds whatever still runs.
"""

from __future__ import annotations

import os
import resource
import threading
from collections.abc import Callable
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = [
    "REQUEST_TIMEOUT",
    "STOP_DEADLINE",
    "ConnectionBudget",
    "GuardedConfig",
    "GuardedH11Protocol",
    "WorkerServer",
]

REQUEST_TIMEOUT = 10.0
"""Seconds a connection has to send a whole request."""

STOP_DEADLINE = 5.0
"""Seconds after SIGINT or SIGTERM when a worker exits, whatever still runs (a model call of an
LLM user's session, say); uvicorn's own graceful stop waits less (``timeout_graceful_shutdown``)."""

_RECEIVING = (h11.IDLE, h11.SEND_BODY)
"""The client's states while its request is not all in."""


class ConnectionBudget:
    """The connections one worker may hold, and those waiting for a request, oldest first.

    Args:
        limit: The most connections held at once.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.waiting: dict[GuardedH11Protocol, None] = {}  # insertion order: oldest first

    @classmethod
    def of_this_process(cls) -> ConnectionBudget:
        """The budget of this process's descriptor limit (call it once serving is set up)."""
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft == resource.RLIM_INFINITY:
            soft = 1 << 20
        try:
            in_use = len(os.listdir("/proc/self/fd"))
        except OSError:  # not Linux: a guess at what the interpreter and the app hold
            in_use = 64
        reserve = max(64, soft // 8)
        return cls(max(16, soft - in_use - reserve))


class GuardedConfig(uvicorn.Config):  # type: ignore[misc]  # uvicorn is untyped here
    """uvicorn's settings, with the worker's `ConnectionBudget` and `GuardedH11Protocol`."""

    def __init__(self, app: Any, budget: ConnectionBudget, **options: Any) -> None:
        super().__init__(app, http=GuardedH11Protocol, **options)
        self.budget = budget


class GuardedH11Protocol(H11Protocol):  # type: ignore[misc]
    """uvicorn's h11 protocol with a request timeout and the budget (see the module)."""

    def __init__(self, config: GuardedConfig, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        self.budget: ConnectionBudget = config.budget
        self._deadline: Any = None  # the timer closing this connection, while waiting

    def connection_made(self, transport: Any) -> None:
        """Wait for the request; drop the longest-waiting connection if over the budget."""
        super().connection_made(transport)
        self._wait_for_request()
        if len(self.connections) > self.budget.limit:
            oldest = next(iter(self.budget.waiting))
            if oldest is not self:
                oldest.drop()

    def data_received(self, data: bytes) -> None:
        """Read as uvicorn does; once the request is all in, it has no deadline."""
        super().data_received(data)
        if self._deadline is not None and self.conn.their_state not in _RECEIVING:
            self._stop_waiting()  # the request is in

    def handle_websocket_upgrade(self, event: Any) -> None:
        """Hand the connection to the WebSocket protocol: its request is in, no deadline."""
        self._stop_waiting()  # the client's h11 state still says the request may have a body
        super().handle_websocket_upgrade(event)

    def on_response_complete(self) -> None:
        """As uvicorn; a kept-alive connection waits for its next request with a deadline."""
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._wait_for_request()

    def connection_lost(self, exc: Exception | None) -> None:
        """As uvicorn, and no longer waiting."""
        self._stop_waiting()
        super().connection_lost(exc)

    def drop(self) -> None:
        """Close the connection: its request did not come in time, or room is needed."""
        self._stop_waiting()
        if not self.transport.is_closing():
            self.transport.close()

    def _wait_for_request(self) -> None:
        self._stop_waiting()
        self.budget.waiting[self] = None
        self._deadline = self.loop.call_later(REQUEST_TIMEOUT, self.drop)

    def _stop_waiting(self) -> None:
        self.budget.waiting.pop(self, None)
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None


class WorkerServer(uvicorn.Server):  # type: ignore[misc]
    """uvicorn's server, calling `on_ready` once it accepts connections; a stop never hangs.

    Args:
        config: The worker's settings.
        on_ready: Called (once) when the server accepts connections; None: nothing.
    """

    def __init__(self, config: GuardedConfig, on_ready: Callable[[], None] | None = None) -> None:
        super().__init__(config)
        self.on_ready = on_ready
        self._deadline: threading.Timer | None = None

    async def startup(self, sockets: Any = None) -> None:
        """Start as uvicorn does, then call `on_ready` (the server accepts connections)."""
        await super().startup(sockets=sockets)
        if self.started and self.on_ready is not None:
            self.on_ready()

    def handle_exit(self, sig: int, frame: Any) -> None:
        """Stop as uvicorn does; the process exits `STOP_DEADLINE` seconds later regardless."""
        super().handle_exit(sig, frame)
        if self._deadline is None:  # the first signal: whatever still runs then is abandoned
            self._deadline = threading.Timer(STOP_DEADLINE, os._exit, args=(128 + sig,))
            self._deadline.daemon = True
            self._deadline.start()
