"""The error taxonomy of tau_env.

Every exception the package raises on purpose derives from `TauEnvError`. `ToolError` is the
only exception a tool raises for a failure the calling side should see (for example "User not
found"): the world turns it into an ``Error: ...`` tool result. Any other exception raised
inside a tool is a bug and propagates.
"""

from __future__ import annotations


class TauEnvError(Exception):
    """Base class of every error raised on purpose by tau_env."""


class ToolError(TauEnvError):
    """A tool failure that the calling side sees as an ``Error: <message>`` result."""


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


class ToolDefinitionError(TauEnvError, TypeError):
    """A function registered as a tool has no usable signature or docstring."""


class ReplayMismatch(TauEnvError, ValueError):
    """Replaying a recorded tool call gave a different result than the recording."""
