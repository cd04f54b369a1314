"""What one model call returns: text or tool calls, token usage, cost, and how it was obtained."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = [
    "EXACT_TOKENS",
    "LLMResponse",
    "LLMToolCall",
    "TurnTokens",
    "Usage",
    "parse_tool_arguments",
    "turn_tokens",
]


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


EXACT_TOKENS: dict[str, Any] = {"logprobs": True, "return_token_ids": True}
"""Request parameters that ask a vLLM or SGLang server for each call's exact tokens
(`TurnTokens`): ``ModelConfig(params=EXACT_TOKENS)``, ``tau-env run --agent-tokens``."""


@dataclass(frozen=True)
class TurnTokens:
    """The exact tokens of one model call, when the server returns them.

    vLLM (0.10.2+, ``return_token_ids``) and SGLang return the prompt's token ids and the
    sampled ones, and (``logprobs``) each sampled token's log-probability: what an off-policy
    or asynchronous trainer needs to train on exactly what was sampled.

    Attributes:
        prompt_ids: The prompt as the server tokenized it (chat template applied).
        completion_ids: The sampled token ids.
        logprobs: The log-probability of each sampled token (empty when not returned).
    """

    prompt_ids: tuple[int, ...] = ()
    completion_ids: tuple[int, ...] = ()
    logprobs: tuple[float, ...] = ()

    def to_dict(self) -> dict[str, list[Any]]:
        """The tokens as JSON-ready lists."""
        return {
            "prompt_ids": list(self.prompt_ids),
            "completion_ids": list(self.completion_ids),
            "logprobs": list(self.logprobs),
        }


def turn_tokens(prompt_ids: Any, completion_ids: Any, logprob_entries: Any) -> TurnTokens | None:
    """`TurnTokens` from a reply's fields, or None when it returned none of them.

    Args:
        prompt_ids: The reply's ``prompt_token_ids`` (a list of ints, or None).
        completion_ids: The choice's ``token_ids`` (a list of ints, or None).
        logprob_entries: The choice's ``logprobs.content`` entries (``{"token", "logprob"}``
            each, or None). Entries whose token reads ``token_id:<n>`` (vLLM's
            ``return_tokens_as_token_ids``) give the completion ids when ``token_ids`` is absent.
    """
    prompt = _ints(prompt_ids)
    completion = _ints(completion_ids)
    logprobs: tuple[float, ...] = ()
    if isinstance(logprob_entries, list):
        entries = [e if isinstance(e, dict) else {} for e in logprob_entries]
        values = [e.get("logprob") for e in entries]
        numbers = [float(v) for v in values if isinstance(v, int | float)]
        if values and len(numbers) == len(values):
            logprobs = tuple(numbers)
        names = [e.get("token") for e in entries]
        prefix = "token_id:"
        written = [t[len(prefix) :] for t in names if isinstance(t, str) and t.startswith(prefix)]
        if not completion and names and len(written) == len(names):
            completion = _ints(written)
    if not (prompt or completion or logprobs):
        return None
    return TurnTokens(prompt, completion, logprobs)


def _ints(values: Any) -> tuple[int, ...]:
    if not isinstance(values, list):
        return ()
    try:
        return tuple(int(v) for v in values)
    except (TypeError, ValueError):
        return ()


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
        tokens: The call's exact prompt and completion token ids and logprobs, when the server
            returned them (None otherwise).
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
    tokens: TurnTokens | None = None

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
        if self.tokens is None:
            record.pop("tokens")
        else:
            record["tokens"] = self.tokens.to_dict()
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
            tokens=_stored_tokens(record.get("tokens")),
        )


def _stored_tokens(record: Any) -> TurnTokens | None:
    if not isinstance(record, dict):
        return None
    return TurnTokens(
        tuple(record.get("prompt_ids") or ()),
        tuple(record.get("completion_ids") or ()),
        tuple(record.get("logprobs") or ()),
    )
