"""Trajectory messages, compatible with the reference's message files.

These are the records of an episode: what each side said, which tools it called and what the
tools answered. Field names follow the reference (`role`, `content`, `tool_calls`, `id`,
`requestor`, `error`) so that recorded trajectories and the ``message_history`` of task files
load unchanged. Fields the reference has for audio, streaming or telemetry are left out; unknown
keys in loaded messages are ignored.

The env's two sides are called ``"agent"`` and ``"user"``; in messages the agent's role is
``"assistant"`` as in the reference. `side_of` and `requestor_of` translate.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "STOP_MARK",
    "STOP_TOKENS",
    "AssistantMessage",
    "Message",
    "Requestor",
    "Side",
    "ToolCall",
    "ToolMessage",
    "UserMessage",
    "UserRequest",
    "has_stop_token",
    "has_text",
    "requestor_of",
    "side_of",
    "trusted",
]

Side = Literal["agent", "user"]
"""The two PettingZoo agents of every tau_env environment."""

Requestor = Literal["assistant", "user"]
"""Who issued a tool call, in the reference's vocabulary."""

STOP_TOKENS: dict[str, str] = {
    "done": "###STOP###",
    "transfer": "###TRANSFER###",
    "out_of_scope": "###OUT-OF-SCOPE###",
}
"""Stop reason -> the token that signals it inside message text."""


STOP_MARK = "###"
"""How every stop token starts (checked at import): text without it holds none of them."""
assert all(token.startswith(STOP_MARK) for token in STOP_TOKENS.values())


def has_stop_token(content: str) -> bool:
    """True when `content` holds one of the `STOP_TOKENS` (such a message ends the episode).

    Text without the tokens' common start (almost every message) is told apart with one
    substring search, not one per token.
    """
    return STOP_MARK in content and any(token in content for token in STOP_TOKENS.values())


def requestor_of(side: Side) -> Requestor:
    """The reference's requestor name for an env side."""
    return "assistant" if side == "agent" else "user"


def side_of(requestor: Requestor) -> Side:
    """The env side for a reference requestor name."""
    return "agent" if requestor == "assistant" else "user"


def has_text(content: str | None) -> bool:
    """True when `content` holds something other than whitespace (the reference's rule)."""
    return content is not None and content.strip() != ""


class _Record(BaseModel):
    model_config = ConfigDict(extra="ignore")


R = TypeVar("R", bound=BaseModel)


def trusted(cls: type[R], fields: dict[str, Any], given: Iterable[str]) -> R:
    """An instance of `cls` built from values already known to be valid, without validation.

    Validated once at the boundary, trusted inside: the env builds its messages from actions
    that were validated when they were made, so validating them again would only cost time
    (half the cost of a step's records). The instance is indistinguishable from one made by
    the validating constructor with the same values (equality, dumps, ``model_fields_set``).

    Args:
        cls: A model whose fields are all in `fields` (no extra fields, no private
            attributes).
        fields: Every field of `cls`, in declaration order, with its final value; the dict
            becomes the instance's own.
        given: The fields a validating constructor call would have been passed (the
            instance's ``model_fields_set``); the others hold their defaults. Hot callers
            pass a module-level frozenset: copying one into the instance's own set costs a
            fraction of building a set from a tuple.
    """
    # What ``cls.model_construct`` does once it has the fields, without its per-field work.
    record = object.__new__(cls)
    object.__setattr__(record, "__dict__", fields)
    object.__setattr__(record, "__pydantic_fields_set__", set(given))
    object.__setattr__(record, "__pydantic_extra__", None)
    object.__setattr__(record, "__pydantic_private__", None)
    return record


class ToolCall(_Record):
    """One call of a tool, as recorded in a trajectory."""

    id: str = Field(default="", description="Call id; the matching ToolMessage carries it.")
    name: str = Field(description="Tool name.")
    arguments: dict[str, Any] = Field(default_factory=dict, description="Keyword arguments.")
    requestor: Requestor = Field(default="assistant", description="Side that made the call.")


class RequestedToolCall(_Record):
    """A user-side tool call that the agent asks the user to perform."""

    name: str = Field(description="User tool name.")
    arguments: dict[str, Any] = Field(default_factory=dict, description="Keyword arguments.")


class UserRequest(_Record):
    """Machine-readable content of an agent message, for programmatic agents and scripted users.

    Seen by the user side only (it travels with the agent's message). LLM users ignore it and
    read the text; the scripted user acts on it exactly.
    """

    tool_calls: list[RequestedToolCall] = Field(
        default_factory=list, description="User tool calls the agent asks the user to perform."
    )
    facts: list[str] = Field(
        default_factory=list, description="Keys of facts the agent asks the user for."
    )


class AssistantMessage(_Record):
    """A message of the agent side: text, or tool calls (text alongside calls reaches no one)."""

    role: Literal["assistant"] = "assistant"
    content: str | None = Field(default=None, description="Text sent to the user.")
    tool_calls: list[ToolCall] | None = Field(default=None, description="Tool calls made.")
    request: UserRequest | None = Field(
        default=None, description="Structured request for the user (tau_env extension)."
    )


class UserMessage(_Record):
    """A message of the user side: text, or calls of the user's own tools."""

    role: Literal["user"] = "user"
    content: str | None = Field(default=None, description="Text sent to the agent.")
    tool_calls: list[ToolCall] | None = Field(default=None, description="Tool calls made.")


class ToolMessage(_Record):
    """The result of one tool call, seen only by the side that made the call."""

    role: Literal["tool"] = "tool"
    id: str = Field(default="", description="Id of the tool call this answers.")
    content: str | None = Field(default=None, description="Serialized result or Error text.")
    requestor: Requestor = Field(default="assistant", description="Side that made the call.")
    error: bool = Field(default=False, description="True when the call failed.")
    name: str | None = Field(default=None, description="Tool name (tau_env extension).")


Message = Annotated[AssistantMessage | UserMessage | ToolMessage, Field(discriminator="role")]
"""Any trajectory message; pydantic picks the class from `role`."""
