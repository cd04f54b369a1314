"""Argument types that refuse out-of-range values while the command line is read.

argparse calls a type on the option's text; raising `argparse.ArgumentTypeError` there gives
the usual one-line usage error (exit 2) naming the option, before any work is done. The
limits come from `tau_env.rollout.bounds`, and each message states the range.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

__all__ = ["finite_number", "integer", "nonempty_text"]

_SHOWN = 40
"""Characters of a refused value quoted in a message."""


def integer(low: int, high: int) -> Callable[[str], int]:
    """A type reading a whole number from `low` to `high`."""

    def read(text: str) -> int:
        stripped = text.strip()
        if len(stripped.lstrip("+-")) > len(str(max(abs(low), abs(high)))) + 1:
            raise argparse.ArgumentTypeError(
                f"must be from {low} to {high}, actually: {_shown(text)}"
            )
        try:
            value = int(stripped)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {_shown(text)}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}, actually: {value}")
        return value

    read.__name__ = "integer"  # argparse names the type in its messages
    return read


def finite_number(low: float, high: float) -> Callable[[str], float]:
    """A type reading a finite number from `low` to `high` (no ``nan``, no ``inf``)."""

    def read(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {_shown(text)}") from None
        if not math.isfinite(value) or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"must be a number from {low:g} to {high:g}, actually: {_shown(text)}"
            )
        return value

    read.__name__ = "number"
    return read


def nonempty_text(text: str) -> str:
    """A type refusing empty or blank text."""
    if not text.strip():
        raise argparse.ArgumentTypeError("cannot be empty")
    return text


def _shown(text: str) -> str:
    return repr(text if len(text) <= _SHOWN else f"{text[:_SHOWN]}...")
