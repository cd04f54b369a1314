"""The server's fairness limits, enforced in front of OpenEnv's app: sessions, size, idle time.

`LimitsMiddleware` is plain ASGI, so it sees every WebSocket message before OpenEnv parses it:

- **Sessions.** At most ``max_sessions`` WebSocket connections at once across every worker
  process (`SessionSlots` counts them in shared memory). One more is accepted, told why in an
  OpenEnv error frame (``CAPACITY_REACHED``) and closed (1013, try again later).
- **Message size.** A WebSocket message longer than ``max_message_bytes`` is answered with an
  error frame (``MESSAGE_TOO_LARGE``) and dropped before anything parses it: the episode is
  unchanged and the session goes on. One longer than twice the limit is not even read: the
  server closes the connection from the frame's header (1009, message too big; see
  `tau_env.integrations.openenv.workers.ServerSpec.uvicorn_options`). An HTTP body over the
  limit gets a 413 without being read (or as soon as it passes the limit, when it comes
  without a length).
- **Idle time.** A session that sends nothing for ``idle_timeout`` seconds is told so in an
  error frame (``IDLE_TIMEOUT``) and closed (4408), which frees its slot. Only time spent
  waiting for the client counts: a step the server is working on never times out. One task
  per worker looks the waiting sessions over (every quarter of the timeout, at most every
  second): a timer per message cost about 9% of the app's CPU per episode.

Error frames have OpenEnv's shape (``{"type": "error", "data": {"message", "code"}}``), so
OpenEnv's clients raise them with the message.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import time
from dataclasses import dataclass
from typing import Any

from tau_env.integrations.openenv.asgi import (
    ASGIApp,
    Message,
    Receive,
    Scope,
    Send,
    error_frame,
    header,
    json_response,
)
from tau_env.integrations.openenv.guard import message_refusal

__all__ = ["IDLE_CLOSE_CODE", "Limits", "LimitsMiddleware", "SessionSlots"]

IDLE_CLOSE_CODE = 4408
"""The close code of a session closed for idleness (4000-4999 are the application's; 408 is
HTTP's request timeout)."""

TRY_AGAIN_LATER = 1013
"""RFC 6455's close code for a server that cannot take the connection now."""


@dataclass(frozen=True)
class Limits:
    """What one server (all its workers together) allows.

    Attributes:
        max_sessions: Concurrent WebSocket sessions, summed over the worker processes.
        max_message_bytes: Largest WebSocket message or HTTP body accepted (UTF-8 bytes).
        idle_timeout: Seconds a session may wait without sending anything before it is closed.
    """

    max_sessions: int = 256
    max_message_bytes: int = 1 << 20
    idle_timeout: float = 300.0

    def __post_init__(self) -> None:
        if self.max_sessions < 1:
            raise ValueError(f"max_sessions must be >= 1, got {self.max_sessions}")
        if self.max_message_bytes < 1024:
            raise ValueError(f"max_message_bytes must be >= 1024, got {self.max_message_bytes}")
        if not self.idle_timeout > 0:
            raise ValueError(f"idle_timeout must be > 0 seconds, got {self.idle_timeout}")


class SessionSlots:
    """Open sessions counted against one limit shared by every worker process.

    Each worker counts its own sessions in its cell of a shared array (so the supervisor can
    zero a dead worker's cell); a new session is admitted while the sum is under the limit.

    Args:
        limit: The most sessions open at once, over all cells.
        counts: A `multiprocessing` ``Array("i", workers)`` from `shared_counts` (None: one
            process, a private count).
        index: This worker's cell.
    """

    def __init__(self, limit: int, counts: Any = None, index: int = 0) -> None:
        self.limit = limit
        self.counts = counts if counts is not None else _PrivateCounts([0])
        self.index = index

    def acquire(self) -> bool:
        """Take a slot; False when every slot is taken."""
        with self.counts.get_lock():
            if sum(self.counts) >= self.limit:
                return False
            self.counts[self.index] += 1
            return True

    def release(self) -> None:
        """Give a slot back."""
        with self.counts.get_lock():
            self.counts[self.index] -= 1

    @property
    def open(self) -> int:
        """Sessions open now, over all workers."""
        return int(sum(self.counts))


class _PrivateCounts(list[int]):
    """One process's session count, shaped like a shared array (one event loop: no lock)."""

    def get_lock(self) -> contextlib.nullcontext[None]:
        return contextlib.nullcontext()


def shared_counts(workers: int) -> Any:
    """A zeroed shared array of one session count per worker (passable to spawned workers)."""
    return multiprocessing.get_context("spawn").Array("i", workers)


class LimitsMiddleware:
    """Enforces `Limits` in front of an ASGI app (see the module docstring).

    Args:
        app: The app behind (OpenEnv's FastAPI app).
        limits: The limits.
        slots: The session counter shared with the other workers.
    """

    def __init__(self, app: ASGIApp, limits: Limits, slots: SessionSlots) -> None:
        self.app = app
        self.limits = limits
        self.slots = slots
        # Sessions waiting for their client, and since when (monotonic seconds): one reaper
        # task looks them over, instead of a timer armed and disarmed around every message.
        self._waiting: dict[_LimitedSession, float] = {}
        self._sessions = 0
        self._reaper: asyncio.Task[None] | None = None
        self._closing: set[asyncio.Task[None]] = set()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one connection (ASGI)."""
        if scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        elif scope["type"] == "http":
            await self._http(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    # -- WebSocket -----------------------------------------------------------------------------
    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        connect = await receive()
        if connect["type"] != "websocket.connect":  # the client left before the handshake
            return
        if not self.slots.acquire():
            await self._refuse(send)
            return
        self._sessions += 1
        if self._reaper is None or self._reaper.done():
            self._reaper = asyncio.create_task(self._reap_idle())
        session = _LimitedSession(receive, send, self.limits, connect, self._waiting)
        try:
            await self.app(scope, session.receive, session.send)
        finally:
            self._waiting.pop(session, None)
            self._sessions -= 1
            self.slots.release()

    async def _reap_idle(self) -> None:
        """Close the sessions that have waited longer than the idle timeout, while any is open.

        Looks every quarter of the timeout (at most every second), so a session is closed
        between one and 1.25 timeouts after its last message.
        """
        timeout = self.limits.idle_timeout
        period = min(1.0, timeout / 4)
        while self._sessions:
            await asyncio.sleep(period)
            stale = time.monotonic() - timeout
            for session in [s for s, since in self._waiting.items() if since < stale]:
                # A task each: a client that stopped reading must not hold up the others.
                closing = asyncio.create_task(session.close_idle())
                self._closing.add(closing)
                closing.add_done_callback(self._closing.discard)

    async def _refuse(self, send: Send) -> None:
        limit = self.slots.limit
        message = (
            f"the server is at its limit of {limit} concurrent sessions (--max-sessions); "
            "retry when a session closes"
        )
        await send({"type": "websocket.accept"})
        frame = error_frame(
            "CAPACITY_REACHED", message, active_sessions=self.slots.open, max_sessions=limit
        )
        await send({"type": "websocket.send", "text": frame})
        await send({"type": "websocket.close", "code": TRY_AGAIN_LATER, "reason": "at capacity"})

    # -- HTTP ----------------------------------------------------------------------------------
    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        limit = self.limits.max_message_bytes
        length = header(scope, b"content-length")
        if length is not None:
            if length.isdigit() and int(length) > limit:
                await _too_large(send, int(length), limit)
                return
            await self.app(scope, receive, send)
            return
        if header(scope, b"transfer-encoding") is None:  # no body
            await self.app(scope, receive, send)
            return
        # A body without a length: read it (up to the limit) before the app sees any of it.
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client disconnected
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > limit:
                await _too_large(send, None, limit)
                return
            if not message.get("more_body", False):
                break
        replay: list[Message] = [{"type": "http.request", "body": b"".join(chunks)}]

        async def buffered() -> Message:
            return replay.pop() if replay else await receive()

        await self.app(scope, buffered, send)


class _LimitedSession:
    """One WebSocket connection's receive and send, with the size limit and the idle close."""

    def __init__(
        self,
        receive: Receive,
        send: Send,
        limits: Limits,
        connect: Message,
        waiting: dict[_LimitedSession, float],
    ) -> None:
        self._receive = receive
        self._send = send
        self._limits = limits
        self._connect: Message | None = connect
        self._waiting = waiting
        self._closed = False

    async def receive(self) -> Message:
        if self._connect is not None:  # the handshake, read before the app asked for it
            connect, self._connect = self._connect, None
            return connect
        limit = self._limits.max_message_bytes
        while True:
            self._waiting[self] = time.monotonic()
            try:
                message = await self._receive()
            finally:
                self._waiting.pop(self, None)
            if self._closed:  # closed (idle, or the client left) meanwhile: the rest is moot
                return {"type": "websocket.disconnect", "code": IDLE_CLOSE_CODE}
            if message["type"] != "websocket.receive":
                return message
            size = _size(message, limit)
            if size <= limit:
                received: str | None = message.get("text")
                refusal = (
                    error_frame("INVALID_JSON", "send each message as a text frame")
                    if received is None
                    else message_refusal(received)
                )
                if refusal is None:
                    return message
                await self._send({"type": "websocket.send", "text": refusal})
                continue
            text = (
                f"message refused: {size:,} bytes or more, over the limit of {limit:,} bytes "
                "(--max-message-bytes); nothing changed, the session goes on"
            )
            await self._send(
                {"type": "websocket.send", "text": error_frame("MESSAGE_TOO_LARGE", text)}
            )

    async def send(self, message: Message) -> None:
        if self._closed:  # closed for idleness: the app's late answers and close are moot
            return
        try:
            await self._send(message)
        except OSError:  # the client left (or the server is stopping) while a step ran
            # Its answer is moot, like the error frames OpenEnv would try next: drop them, and
            # the next receive returns the disconnect (else each one adds a traceback).
            self._closed = True

    async def close_idle(self) -> None:
        """Tell the client why, and close (the pending receive then returns a disconnect)."""
        if self._closed:
            return
        self._closed = True
        timeout = self._limits.idle_timeout
        text = (
            f"session closed after {timeout:g} s without a message (--idle-timeout); "
            "open a new session to play on"
        )
        await self._send({"type": "websocket.send", "text": error_frame("IDLE_TIMEOUT", text)})
        await self._send(
            {"type": "websocket.close", "code": IDLE_CLOSE_CODE, "reason": "idle timeout"}
        )


def _size(message: Message, limit: int) -> int:
    """The message's size in bytes: exact near the limit, a lower bound far above it."""
    data = message.get("bytes")
    if data is not None:
        return len(data)
    text: str = message.get("text") or ""
    if len(text) > limit or 4 * len(text) <= limit:  # UTF-8: 1 to 4 bytes a character
        return len(text)
    return len(text.encode("utf-8"))


async def _too_large(send: Send, size: int | None, limit: int) -> None:
    told = f" ({size:,} bytes)" if size is not None else ""
    text = f"request body too large{told}: the limit is {limit:,} bytes (--max-message-bytes)"
    await json_response(send, 413, text)
