"""Sorting what goes wrong in an episode into faults with different consequences.

* ``infrastructure``: a provider or network outage that outlived the LLM layer's retries. The
  attempt is logged apart, retried on resume, and never counted as a pass or a fail.
* ``participant``: the participant itself failed (it handed the env something that is not an
  action, or its model kept answering unusably). The episode ends there, graded 0, as the
  side's error: a flaky agent must not be able to turn its failures into exclusions.
* ``context_window``: the conversation outgrew the model's context. Deterministic, so
  retrying is wasted money: the episode ends graded 0 (``context_window_exceeded``).
* ``crash``: anything else is a bug. The attempt is logged with its traceback, counted
  nowhere, and retried on resume once the bug is fixed.
"""

from __future__ import annotations

from enum import StrEnum

from tau_env.errors import (
    ContextWindowExceeded,
    InfrastructureError,
    InvalidAction,
    ParticipantError,
)

__all__ = ["Fault", "classify"]


class Fault(StrEnum):
    """What an exception raised during an episode means for the run."""

    INFRASTRUCTURE = "infrastructure"
    PARTICIPANT = "participant"
    CONTEXT_WINDOW = "context_window"
    CRASH = "crash"


_INFRASTRUCTURE: tuple[type[BaseException], ...] = (
    InfrastructureError,
    ConnectionError,  # participants that reach their own services directly
    TimeoutError,
)
_PARTICIPANT: tuple[type[BaseException], ...] = (ParticipantError, InvalidAction)
_CONTEXT_WINDOW: tuple[type[BaseException], ...] = (ContextWindowExceeded,)


def classify(error: BaseException) -> Fault:
    """The fault an exception raised by a participant or the env stands for."""
    if isinstance(error, _CONTEXT_WINDOW):
        return Fault.CONTEXT_WINDOW
    if isinstance(error, _PARTICIPANT):
        return Fault.PARTICIPANT
    if isinstance(error, _INFRASTRUCTURE):
        return Fault.INFRASTRUCTURE
    return Fault.CRASH
