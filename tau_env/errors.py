"""The error taxonomy of tau_env.

Every exception the package raises on purpose derives from `TauEnvError`. `ToolError` is the
only exception a tool raises for a failure the calling side should see (for example "User not
found"): the world turns it into an ``Error: ...`` tool result. Python's own errors about a
value (``ValueError``, ``TypeError``, ``ArithmeticError``, ``RecursionError``) raised inside a
tool become such a result too, worded as the reference words them. Any other exception raised
inside a tool is a defect of the tool: the call still gets an ``Error: ...`` result naming the
exception, so one bad call never ends a run, and a `ToolDefectWarning` says where it happened
(the test suite turns that warning into an error).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """``did you mean 'telecom'?`` for the known name closest to a mistyped one, else ``""``.

    For messages about an unknown domain, task or split. Close means difflib's similarity ratio
    of at least 0.6 (a letter or two off in a short name); nothing is suggested for a name like
    none of them. Names over 7/3 as long or as short as `name` are passed over unread: their
    ratio (twice the matched characters over both lengths) cannot reach 0.6, and comparing a
    long name costs time in proportion to both lengths (a 300,000-character task id sent to a
    server took 90 ms of its event loop).
    """
    size = len(name)
    near = [item for item in known if 3 * max(size, len(item)) <= 7 * min(size, len(item))]
    close = difflib.get_close_matches(name, near, n=1, cutoff=0.6) if near else []
    return f"did you mean {close[0]!r}?" if close else ""


class TauEnvError(Exception):
    """Base class of every error raised on purpose by tau_env."""


class ToolError(TauEnvError):
    """A tool failure that the calling side sees as an ``Error: <message>`` result."""


class ToolDefectWarning(RuntimeWarning):
    """A tool raised an exception that is neither a `ToolError` nor an error about a value."""


class InvalidAction(TauEnvError, ValueError):
    """An action handed to `step` is not an action at all (wrong type, missing fields)."""


class ResetNeeded(TauEnvError, RuntimeError):
    """The environment was used before `reset` or after the episode ended."""


class UnregisteredEnv(TauEnvError, KeyError):
    """No environment or domain is registered under the requested name."""

    def __str__(self) -> str:  # KeyError quotes its message; we want it verbatim.
        return str(self.args[0]) if self.args else ""


class VersionNotFound(UnregisteredEnv):
    """The domain exists, but not in the requested version."""


class DataError(TauEnvError, ValueError):
    """A data folder, database file or task file is missing or malformed.

    The message always names the file, and where it applies the task id and the field.
    """


class InvalidOption(TauEnvError, ValueError):
    """An environment option is unknown to the domain or has a value of the wrong type.

    For example a retrieval variant or setting the domain does not offer.
    """


class NoBuiltinData(DataError):
    """The domain ships no built-in data (yet): it needs a reference data folder."""


class UnsupportedRenderMode(TauEnvError, ValueError, TypeError):
    """An env was asked for a render mode it does not have (tau_env renders text only).

    A ValueError (the value is wrong) and a TypeError: libraries that ask for a mode
    speculatively make the env again without it on a TypeError, as stable-baselines3's
    ``make_vec_env`` does with ``render_mode="rgb_array"``.
    """


class ToolDefinitionError(TauEnvError, TypeError):
    """A function registered as a tool has no usable signature or docstring."""


class ReplayMismatch(TauEnvError, ValueError):
    """Replaying a recorded tool call gave a different result than the recording."""


class LLMError(TauEnvError):
    """A model call failed; the subclass says whose failure it is and what to do about it."""


class InfrastructureError(LLMError, RuntimeError):
    """The provider failed: still failing after the retries, or misconfigured.

    Never the participant's fault and never a pass: runners record the episode apart (as the
    reference's ``infrastructure_error``) and play it again when the run resumes.

    Attributes:
        attempts: Calls made before giving up.
        transient: True when the last failure was of a retryable kind (429, 5xx, timeout,
            connection); False for failures retrying cannot fix (authentication, bad request).
    """

    def __init__(self, message: str, *, attempts: int = 1, transient: bool = True) -> None:
        super().__init__(message)
        self.attempts = attempts
        self.transient = transient


class ParticipantError(LLMError, ValueError):
    """The model answered, but with something no participant may send (an empty reply).

    The participant's own failure: the episode ends with that side's error (reward 0) and is
    never retried. Malformed tool-call arguments are not this error: they reach the env as a
    tool call and come back as an ``Error: ...`` tool result, as any bad call does.
    """


class ContextWindowExceeded(LLMError, ValueError):
    """The conversation no longer fits the model's context window.

    Deterministic (the same call fails again), so never retried: the episode ends with that
    side's error, as for `ParticipantError`, and is recorded as ``context_window_exceeded``.
    """


class ModelAccessError(InfrastructureError):
    """The provider refuses the credentials or does not know the model (or no key is set).

    No retry and no other episode can fix it, so runners stop the run at once instead of
    failing every episode; the message is one line naming the provider and what to set
    (usually the API key's environment variable). Never the participant's fault, never a pass.
    """

    def __init__(self, message: str, *, attempts: int = 1) -> None:
        super().__init__(message, attempts=attempts, transient=False)


class JudgeError(InfrastructureError):
    """The NL-assertion judge gave no usable verdict, even after being asked again.

    Never a pass and never a fail: the assertions stay not judged, and a later
    ``tau-env resume --judge-model ...`` judges them from the stored conversation.
    """
