"""Many equal sleeps on one event loop, woken by a single loop timer.

The fake model servers hold every reply for the same latency. `asyncio.sleep` schedules a loop
timer per sleep, and the loop keeps its timers in a heap whose entries are compared in Python:
with hundreds of replies waiting, that is a tenth of the fake server's CPU, which the benchmarks
count against the client they measure. Sleeps of the same length end in the order they began,
so a queue per length and one timer, armed for the earliest end, wake them all.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque

__all__ = ["Sleeps"]

_RESOLUTION = time.get_clock_info("monotonic").resolution
"""A sleep ending within this much of now has ended (as the event loop counts its timers)."""


class Sleeps:
    """Sleeps on one event loop (create it, and sleep, on that loop's thread).

    Args:
        loop: The event loop.

    Attributes:
        loop: The event loop.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._queues: dict[float, deque[tuple[float, asyncio.Future[None]]]] = {}
        self._timer: asyncio.TimerHandle | None = None

    async def sleep(self, seconds: float) -> None:
        """Return after `seconds` (as `asyncio.sleep`; a cancelled sleep is dropped)."""
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        loop = self.loop
        when = loop.time() + seconds
        waiter: asyncio.Future[None] = loop.create_future()
        queue = self._queues.get(seconds)
        if queue is None:
            queue = self._queues[seconds] = deque()
        queue.append((when, waiter))
        timer = self._timer
        if timer is None or when < timer.when():  # the latter only with several lengths
            if timer is not None:
                timer.cancel()
            self._timer = loop.call_at(when, self._wake)
        await waiter

    def _wake(self) -> None:
        """End the sleeps that are due; arm the timer for the next."""
        self._timer = None
        due = self.loop.time() + _RESOLUTION
        earliest: float | None = None
        for queue in self._queues.values():
            while queue and queue[0][0] <= due:
                waiter = queue.popleft()[1]
                if not waiter.done():  # a cancelled sleep's waiter is done
                    waiter.set_result(None)
            if queue and (earliest is None or queue[0][0] < earliest):
                earliest = queue[0][0]
        if earliest is not None:
            self._timer = self.loop.call_at(earliest, self._wake)
