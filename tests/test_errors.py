"""`tau_env.errors`: the closest-name hint stays difflib's, and cheap for any name."""

from __future__ import annotations

import difflib
import random

from tau_env.errors import did_you_mean


def test_did_you_mean__the_same_hint_as_difflib_over_every_candidate():
    rng = random.Random(0)
    for _ in range(5000):
        known = ["".join(rng.choices("abc", k=rng.randint(1, 12))) for _ in range(5)]
        name = "".join(rng.choices("abc", k=rng.randint(1, 30)))
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
        assert did_you_mean(name, known) == (f"did you mean {close[0]!r}?" if close else "")


def test_did_you_mean__a_huge_name_is_not_compared():
    """A 300,000-character task id sent to the server took 90 ms of its event loop in difflib."""
    known = [f"task_{i:03d}" for i in range(500)]
    huge = "task_001" * 40_000
    assert did_you_mean(huge, known) == ""
    assert did_you_mean("tsak_042", known) == "did you mean 'task_042'?"
