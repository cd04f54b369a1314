"""A one-line progress bar on stderr for long runs (no dependency; silent when not a terminal)."""

from __future__ import annotations

import sys
import time
from typing import TextIO

from tau_env.store.records import EpisodeRecord, FailureRecord

__all__ = ["ProgressBar"]


class ProgressBar:
    """Counts outcomes and redraws one line: bar, done/total, passes, failures, rate, ETA.

    Args:
        stream: Where to draw (default: stderr).
        enabled: None draws only when `stream` is a terminal.
        width: Characters of the bar itself.
    """

    def __init__(
        self, stream: TextIO | None = None, *, enabled: bool | None = None, width: int = 30
    ) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.width = width
        self.total = 0
        self.done = 0
        self.passed = 0
        self.failed = 0
        self._started = time.monotonic()
        self._drawn = 0.0

    def start(self, total: int, already_done: int) -> None:
        """Begin counting `total` episodes (`already_done` were in the store before)."""
        self.total = total
        self._started = time.monotonic()
        if already_done and self.enabled:
            self.stream.write(f"resuming: {already_done} episodes already in the store\n")
        self._draw(force=True)

    def update(self, outcome: EpisodeRecord | FailureRecord) -> None:
        """Count one outcome and redraw (at most 10 times a second)."""
        if isinstance(outcome, EpisodeRecord):
            self.done += 1
            self.passed += int(outcome.success)
        else:
            self.failed += 1
        self._draw(force=self.done + self.failed >= self.total)

    def close(self) -> None:
        """End the line."""
        if self.enabled and self.total:
            self._draw(force=True)
            self.stream.write("\n")
            self.stream.flush()

    def line(self) -> str:
        """The current progress line."""
        finished = self.done + self.failed
        fraction = finished / self.total if self.total else 1.0
        filled = int(fraction * self.width)
        elapsed = time.monotonic() - self._started
        rate = finished / elapsed if elapsed > 0 else 0.0
        eta = (self.total - finished) / rate if rate > 0 else 0.0
        bar = "#" * filled + "-" * (self.width - filled)
        return (
            f"[{bar}] {finished}/{self.total} episodes, {self.passed} passed, "
            f"{self.failed} failed attempts, {rate:.1f}/s, ETA {eta:.0f}s"
        )

    def _draw(self, *, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if not force and now - self._drawn < 0.1:
            return
        self._drawn = now
        self.stream.write("\r" + self.line())
        self.stream.flush()
