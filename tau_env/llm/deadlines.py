"""Call timeouts at O(1) each: what `asyncio.timeout` does, without a loop timer per call.

Every lean model call runs under `ModelConfig.timeout`. `asyncio.timeout` schedules and cancels
one loop timer per call: a context-manager object, two coroutine frames, and a push onto the
loop's timer heap, whose entries are compared in Python (about ten comparisons per call with
hundreds of calls in flight). At thousands of calls per second that is a visible share of a
call. Calls with the same timeout reach their deadlines in the order they started, so one queue
per timeout value and a single loop timer, armed for the earliest deadline still pending, do the
same work: starting a call appends to its queue, ending it marks it done, and the timer, when
it fires, cancels the task of every call still running past its deadline (exactly as
`asyncio.timeout` cancels it) and re-arms for the next.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import deque

__all__ = ["Deadline", "Deadlines"]

_RESOLUTION = time.get_clock_info("monotonic").resolution
"""A timer due within this much of now counts as due (as the event loop counts its timers)."""


class Deadline:
    """The deadline of one call, running in `task`.

    Attributes:
        when: The loop time at which the call is cancelled if still running.
        done: The call has ended (its deadline no longer matters).
        expired: The deadline passed while the call ran: its task was cancelled.
    """

    __slots__ = ("_cancelling", "_task", "done", "expired", "when")

    def __init__(self, when: float, task: asyncio.Task[object]) -> None:
        self.when = when
        self.done = False
        self.expired = False
        self._task = task
        self._cancelling = task.cancelling()

    def end(self) -> bool:
        """Mark the call ended; True when the cancellation it received was its deadline's.

        As `asyncio.timeout` on exit: the deadline's cancel request is withdrawn, and the
        cancellation is the timeout's own unless someone else also cancelled the task.
        """
        self.done = True
        return self.expired and self._task.uncancel() <= self._cancelling

    def _expire(self) -> None:
        self.expired = True
        self._task.cancel()


class Deadlines:
    """The deadlines of the calls of one event loop.

    Args:
        loop: The event loop the calls run on.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._queues: dict[float, deque[Deadline]] = {}
        self._timer: asyncio.TimerHandle | None = None

    def start(self, seconds: float | None) -> Deadline:
        """The deadline of a call starting now in the current task, `seconds` from now.

        None: no deadline (the call may take forever). The caller must call `Deadline.end`
        when the call ends, however it ends.
        """
        task = asyncio.current_task(self._loop)
        if task is None:
            raise RuntimeError("a call deadline needs a running task")
        if seconds is None:
            return Deadline(math.inf, task)
        loop = self._loop
        when = loop.time() + seconds
        queue = self._queues.get(seconds)
        if queue is None:
            queue = self._queues[seconds] = deque()
        while queue and queue[0].done:  # calls ended since: they leave from the front
            queue.popleft()
        deadline = Deadline(when, task)
        queue.append(deadline)
        timer = self._timer
        if timer is None or when < timer.when():  # the latter only with several timeouts
            if timer is not None:
                timer.cancel()
            self._timer = loop.call_at(when, self._fire)
        return deadline

    def _fire(self) -> None:
        """Cancel the calls past their deadlines; arm the timer for the next pending one."""
        self._timer = None
        due = self._loop.time() + _RESOLUTION
        earliest: float | None = None
        for queue in self._queues.values():
            while queue and (queue[0].done or queue[0].when <= due):
                deadline = queue.popleft()
                if not deadline.done:
                    deadline._expire()
            if queue and (earliest is None or queue[0].when < earliest):
                earliest = queue[0].when
        if earliest is not None:
            self._timer = self._loop.call_at(earliest, self._fire)
