"""Fewer young-generation garbage collections while episodes play.

CPython collects its youngest generation every 700 net allocations of container objects. A
run with hundreds of episodes in flight keeps thousands of young objects alive at any moment
(each episode's messages, records, coroutines and futures, alive until it ends), so every
young collection scans and promotes them again, and the older generations fill with objects
that die soon after: at 256 episodes in flight that was a tenth of the driver's CPU per model
call. While a run plays, `spaced_collections` raises the young generation's threshold to
10,000 allocations (the older generations' are unchanged), which lets most of these objects
die by reference counting before any scan; cyclic garbage is still collected, a little later.
The previous threshold is restored when the last run in the process ends, unless someone else
changed it meanwhile.
"""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator

__all__ = ["YOUNG_THRESHOLD", "spaced_collections"]

YOUNG_THRESHOLD = 10_000
"""Net container allocations between young collections while a run plays."""

_lock = threading.Lock()
_runs = 0  # runs playing in this process
_saved: tuple[int, int, int] | None = None  # the thresholds before the first of them


@contextlib.contextmanager
def spaced_collections() -> Iterator[None]:
    """Raise the young generation's collection threshold for the duration of the block.

    Nested and concurrent blocks share one change. A threshold of 0 (collection disabled) or
    already above `YOUNG_THRESHOLD` is left as it is.
    """
    global _runs, _saved
    with _lock:
        if _runs == 0:
            young, middle, old = gc.get_threshold()
            if 0 < young < YOUNG_THRESHOLD:
                _saved = (young, middle, old)
                gc.set_threshold(YOUNG_THRESHOLD, middle, old)
        _runs += 1
    try:
        yield
    finally:
        with _lock:
            _runs -= 1
            if _runs == 0 and _saved is not None:
                if gc.get_threshold()[0] == YOUNG_THRESHOLD:  # nobody changed it since
                    gc.set_threshold(*_saved)
                _saved = None
