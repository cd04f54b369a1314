"""Evaluation modes (spec §5) as env wrappers applied on top of the default env stack."""

from __future__ import annotations

from typing import Any

from tau_env.errors import TauEnvError
from tau_env.rollout.config import MODES

__all__ = ["apply_mode"]


def apply_mode(env: Any, mode: str) -> Any:
    """Wrap `env` for an evaluation mode (``default`` returns it unchanged).

    Raises:
        TauEnvError: Unknown mode, or a mode whose wrapper is not available.
    """
    if mode not in MODES:
        raise TauEnvError(f"mode must be one of {list(MODES)}, actually: {mode!r}")
    if mode == "default":
        return env
    raise TauEnvError(
        f"mode {mode!r} needs the No-User / Oracle-Plan wrappers (tau_env.wrappers.modes), "
        "which are not installed yet"
    )
