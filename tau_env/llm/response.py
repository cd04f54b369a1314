"""What one model call returns: text or tool calls, token usage, cost, and how it was obtained."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["LLMResponse", "LLMToolCall", "Usage", "parse_tool_arguments"]


@dataclass(frozen=True)
class LLMToolCall:
    """A tool call as the model wrote it.

    Attributes:
        id: The provider's call id (used to pair the call with its result).
        name: Function name.
        raw_arguments: The arguments text exactly as the model wrote it.
        arguments: `raw_arguments` parsed to a JSON object, or None when it is not one.
    """

    id: str
    name: str
    raw_arguments: str
    arguments: dict[str, Any] | None

    @property
    def malformed(self) -> bool:
        """True when the arguments are not a JSON object (the call will fail as a tool error)."""
        return self.arguments is None

    @classmethod
    def from_wire(cls, id: str, name: str, raw_arguments: str | None) -> LLMToolCall:
        """Build from the wire format, parsing the arguments leniently (never raises)."""
        raw = raw_arguments or ""
        return cls(id=id, name=name, raw_arguments=raw, arguments=parse_tool_arguments(raw))


def parse_tool_arguments(raw: str) -> dict[str, Any] | None:
    """JSON-object arguments, or None; empty text means no arguments (``{}``)."""
    if raw.strip() == "":
        return {}
    try:
        parsed = json.loads(raw)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than the parser goes
        return None
    return parsed if isinstance(parsed, dict) else None


@dataclass(frozen=True)
class Usage:
    """Token counts of one call (0 when the provider did not report them)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        """Prompt plus completion tokens."""
        return self.prompt_tokens + self.completion_tokens


@dataclass(frozen=True)
class LLMResponse:
    """The result of one successful model call.

    Attributes:
        model: The model that answered (as configured).
        content: The text of the reply (None or empty: no text).
        tool_calls: The tool calls of the reply, in order.
        usage: Token counts.
        cost: Cost in USD as litellm prices it; None when the model has no known price.
        cached: True when the reply came from the response cache (no provider call was made;
            `usage` and `cost` are those of the original call).
        attempts: Provider calls made (1 + retries); 0 for a cache hit.
        latency: Seconds spent, retries and waits included.
        finish_reason: The provider's finish reason, if given.
    """

    model: str
    content: str | None
    tool_calls: tuple[LLMToolCall, ...] = ()
    usage: Usage = field(default_factory=Usage)
    cost: float | None = None
    cached: bool = False
    attempts: int = 1
    latency: float = 0.0
    finish_reason: str | None = None

    @property
    def has_text(self) -> bool:
        """True when the reply has non-whitespace text."""
        return self.content is not None and self.content.strip() != ""

    @property
    def is_empty(self) -> bool:
        """True when the reply has neither text nor tool calls (a participant error)."""
        return not self.tool_calls and not self.has_text

    def to_record(self) -> dict[str, Any]:
        """A JSON-able record (what the response cache stores)."""
        record = asdict(self)
        record.pop("cached")
        record.pop("attempts")
        record.pop("latency")
        return record

    @classmethod
    def from_record(cls, record: dict[str, Any], *, cached: bool = True) -> LLMResponse:
        """Rebuild a response stored by `to_record`."""
        return cls(
            model=record["model"],
            content=record.get("content"),
            tool_calls=tuple(LLMToolCall(**call) for call in record.get("tool_calls") or ()),
            usage=Usage(**(record.get("usage") or {})),
            cost=record.get("cost"),
            cached=cached,
            attempts=0 if cached else 1,
            latency=0.0,
            finish_reason=record.get("finish_reason"),
        )
