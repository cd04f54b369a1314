"""Per-episode seeds derived from (base seed, task, trial), stable across runs and machines."""

from __future__ import annotations

import hashlib

__all__ = ["episode_seed"]


def episode_seed(base_seed: int, task_id: str, trial: int) -> int:
    """A 31-bit seed that depends only on its arguments (not on run order or concurrency)."""
    digest = hashlib.sha256(f"{base_seed}:{task_id}:{trial}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF
