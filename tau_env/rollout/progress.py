"""The run's progress on stderr: tqdm's bar, with the passes and failed attempts beside it."""

from __future__ import annotations

import sys
from typing import Never, TextIO

from tqdm import tqdm

from tau_env.store.records import EpisodeRecord, FailureRecord

__all__ = ["ProgressBar"]


class ProgressBar:
    """Counts outcomes on one tqdm line: bar, done/total, rate, ETA, passes, failed attempts.

    Args:
        stream: Where to draw (default: stderr).
        enabled: None draws only when `stream` is a terminal.
    """

    def __init__(self, stream: TextIO | None = None, *, enabled: bool | None = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.passed = 0
        self.failed = 0
        self._bar: tqdm[Never] | None = None  # a bar without an iterable

    def start(self, total: int, already_done: int) -> None:
        """Begin counting `total` episodes (`already_done` were in the store before)."""
        if already_done and self.enabled:
            self.stream.write(f"resuming: {already_done} episodes already in the store\n")
        bar: tqdm[Never] = tqdm(
            total=total,
            file=self.stream,
            disable=not self.enabled,
            unit=" episodes",
            mininterval=0.1,
            dynamic_ncols=True,
        )
        bar.set_postfix_str(self._counts(), refresh=False)
        self._bar = bar

    def update(self, outcome: EpisodeRecord | FailureRecord) -> None:
        """Count one outcome (an episode, or a failed attempt) and advance the bar."""
        if isinstance(outcome, EpisodeRecord):
            self.passed += int(outcome.success)
        else:
            self.failed += 1
        if self._bar is not None:
            self._bar.set_postfix_str(self._counts(), refresh=False)
            self._bar.update()

    def close(self) -> None:
        """End the line."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def line(self) -> str:
        """The current progress line ('' before `start`)."""
        return str(self._bar) if self._bar is not None else ""

    def _counts(self) -> str:
        return f"{self.passed} passed, {self.failed} failed attempts"
