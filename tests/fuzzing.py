"""How many examples the fuzz tests try: few in the test suite, many in the slow benchmark.

The fuzz tests of issue 56 (`tests/importing/test_import_fuzz.py`, `tests/cli/test_option_fuzz.py`,
`tests/reliability/test_redaction_fuzz.py`) are seeded (hypothesis' derandomized mode) and small,
so the suite stays fast and repeatable; ``benchmarks/fuzz_hostile.py`` sets
``TAU_ENV_FUZZ_EXAMPLES`` and runs them with many more examples, randomized.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

__all__ = ["fuzz_settings"]


def fuzz_settings(examples: int) -> settings:
    """Hypothesis settings of a fuzz test: `examples` in the suite, seeded; the benchmark's
    count, randomized, when ``TAU_ENV_FUZZ_EXAMPLES`` is set."""
    slow = os.environ.get("TAU_ENV_FUZZ_EXAMPLES")
    return settings(
        max_examples=int(slow) if slow else examples,
        derandomize=not slow,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
