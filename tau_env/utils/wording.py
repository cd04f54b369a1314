"""Small wording helpers for text people read: counts with their noun, plain help text.

(The near-miss hint of error messages, `did_you_mean`, is in `tau_env.errors`.)
"""

from __future__ import annotations

import re

__all__ = ["counted", "plain_help"]


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``1 trial``, ``2 trials``, ``0 trials`` (`plural` for irregular nouns)."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


_LITERAL = re.compile(r"``(.+?)``|`([^`\s][^`]*?)`")


def plain_help(text: str | None) -> str | None:
    """A docstring as ``--help`` prints it: reStructuredText's backtick quotes removed."""
    if text is None:
        return None
    return _LITERAL.sub(lambda match: match.group(1) or match.group(2), text)
