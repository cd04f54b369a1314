"""How many model calls may be in flight at once, shared by every client given the same limiter."""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["CallLimiter"]


class CallLimiter:
    """A concurrency limit on model calls.

    Give one limiter to every client of a run (agent, user, judge) to cap the run's calls in
    flight; each client otherwise gets its own. Async calls wait on an `asyncio.Semaphore`
    (one per event loop, made on first use); sync calls wait on a thread semaphore of the same
    size (each path is capped separately).

    Args:
        max_concurrent: Calls allowed in flight at once.

    Attributes:
        in_flight: Calls in flight now.
        peak: The most calls ever in flight at once (for tests and reports).
    """

    def __init__(self, max_concurrent: int = 8) -> None:
        if max_concurrent < 1:
            raise ValueError(f"max_concurrent must be >= 1, actually: {max_concurrent}")
        self.max_concurrent = max_concurrent
        self.in_flight = 0
        self.peak = 0
        self._count_lock = threading.Lock()
        self._thread_slots: threading.BoundedSemaphore | None = None  # made on first use
        self._loop_slots: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, asyncio.Semaphore
        ] = weakref.WeakKeyDictionary()
        self._last: tuple[weakref.ref[asyncio.AbstractEventLoop], asyncio.Semaphore] | None = None
        """The last loop slots were taken on, and its semaphore (skips the weak mapping)."""

    def __repr__(self) -> str:
        return f"CallLimiter(max_concurrent={self.max_concurrent})"

    def slot(self) -> _Slot:
        """Hold one slot for the duration of an async call (``async with limiter.slot():``)."""
        loop = asyncio.get_running_loop()
        last = self._last
        if last is not None and last[0]() is loop:
            return _Slot(self, last[1])
        semaphore = self._loop_slots.get(loop)
        if semaphore is None:
            with self._count_lock:
                semaphore = self._loop_slots.get(loop)
                if semaphore is None:
                    semaphore = asyncio.Semaphore(self.max_concurrent)
                    self._loop_slots[loop] = semaphore
        self._last = (weakref.ref(loop), semaphore)
        return _Slot(self, semaphore)

    @contextmanager
    def sync_slot(self) -> Iterator[None]:
        """Hold one slot for the duration of a blocking call."""
        slots = self._thread_slots
        if slots is None:
            with self._count_lock:
                if self._thread_slots is None:
                    self._thread_slots = threading.BoundedSemaphore(self.max_concurrent)
                slots = self._thread_slots
        with slots:
            self._enter()
            try:
                yield
            finally:
                self._leave()

    def _enter(self) -> None:
        with self._count_lock:
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)

    def _leave(self) -> None:
        with self._count_lock:
            self.in_flight -= 1


class _Slot:
    """One held slot of a `CallLimiter` on the running loop (an async context manager)."""

    __slots__ = ("_limiter", "_semaphore")

    def __init__(self, limiter: CallLimiter, semaphore: asyncio.Semaphore) -> None:
        self._limiter = limiter
        self._semaphore = semaphore

    async def __aenter__(self) -> None:
        await self._semaphore.acquire()
        self._limiter._enter()

    async def __aexit__(self, *exc: object) -> None:
        self._limiter._leave()
        self._semaphore.release()
