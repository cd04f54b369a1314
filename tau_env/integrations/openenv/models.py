"""The wire types of the OpenEnv server: an assistant message in, chat messages out."""

from __future__ import annotations

from typing import Any

from openenv.core import Action, Observation, State
from pydantic import Field

__all__ = ["TauAction", "TauObservation", "TauState"]


class TauAction(Action):  # type: ignore[misc]  # openenv is untyped
    """One agent turn: an assistant message as a chat completion returns it.

    Send ``{"content": "..."}`` to talk to the customer, or ``{"tool_calls": [{"function":
    {"name": ..., "arguments": {...}}}]}`` to call tools (``id`` and ``type`` optional).
    """

    content: str | None = Field(default=None, description="Text for the customer.")
    tool_calls: list[dict[str, Any]] | None = Field(
        default=None, description="OpenAI-style tool calls, run in order."
    )


class TauObservation(Observation):  # type: ignore[misc]
    """What came back: new chat messages; after a reset also the tool schemas.

    It never names the task (issue 53: harnesses paste observations into the model's prompt,
    and an id can spell out the answer); the client knows the task it asked for.

    ``reward`` is the episode's reward once ``done``, on the server's scale (``--reward``:
    binary, partial or breakdown; None only when the NL judge failed to rule);
    ``metadata["grade"]`` is the grade, ``metadata["reward_breakdown"]`` the per-check vector
    (with ``--reward breakdown``).
    """

    messages: list[dict[str, Any]] = Field(
        default_factory=list,
        description="After reset: the whole chat so far; after a step: tool results and replies.",
    )
    tools: list[dict[str, Any]] = Field(
        default_factory=list, description="The agent's tool schemas (sent with the reset only)."
    )


class TauState(State):  # type: ignore[misc]
    """The session's episode: id, turns taken, whether it is over (never the task's id)."""

    done: bool = Field(default=True, description="True when no episode is in progress.")
