"""The largest run tau_env accepts: limits checked before anything is allocated.

A run's plan (tasks x trials), its episodes' step limits and its seeds come from the command
line, a stored configuration or an imported file. Each is bounded here, once, so that a typo or
a hostile file (``--trials 1000000000``, ``num_trials: 1e9``) is refused with the limit in the
message instead of exhausting memory before the first episode. The limits are far above any
real use: the reference runs 1 to 32 trials of at most a few thousand tasks, 200 steps each.
"""

from __future__ import annotations

from tau_env.errors import TauEnvError

__all__ = [
    "MAX_CONCURRENCY",
    "MAX_DURATION",
    "MAX_EPISODES",
    "MAX_ERRORS",
    "MAX_SEED",
    "MAX_STEPS",
    "MAX_TEMPERATURE",
    "MAX_TRIALS",
    "MAX_WORKERS",
    "check_range",
]

MAX_TRIALS = 1_000
"""Trials per task."""

MAX_EPISODES = 10_000_000
"""Episodes in one run (tasks x trials)."""

MAX_STEPS = 100_000
"""Step limit of an episode."""

MAX_ERRORS = MAX_STEPS
"""Cumulative tool-error limit of an episode (more errors than steps cannot happen)."""

MAX_SEED = 2**63 - 1
"""Largest seed magnitude: what the result store's INTEGER column holds."""

MAX_CONCURRENCY = 100_000
"""Episodes or model calls in flight at once."""

MAX_WORKERS = 1_024
"""Worker processes of the local backend."""

MAX_TEMPERATURE = 2.0
"""Highest sampling temperature (OpenAI's range is 0 to 2; other providers' is narrower)."""

MAX_DURATION = 7 * 24 * 3600.0
"""Longest episode, in seconds, a stored or imported record may say it took (a week)."""


def check_range(flag: str, value: int, low: int, high: int) -> None:
    """Refuse `value` of option `flag` outside `low`..`high` (before it sizes any work).

    Raises:
        TauEnvError: ``<flag> must be >= <low>`` (or ``<= <high>``), with the value.
    """
    if value < low:
        raise TauEnvError(f"{flag} must be >= {low}, actually: {value}")
    if value > high:
        raise TauEnvError(f"{flag} must be <= {high}, actually: {_shown(value)}")


def _shown(value: int) -> str:
    text = str(value)
    return text if len(text) <= 24 else f"a number of {len(text)} digits"
