"""What the fake OpenAI-compatible server receives and answers: requests, replies, tool calls.

Kept apart from the server (`tau_env.testing.fake_openai`) so the code that writes reply bodies
(`tau_env.testing.fake_completions`) can use them without importing the server.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["FakeReply", "FakeRequest", "FakeToolCall", "Script"]


@dataclass(frozen=True)
class FakeToolCall:
    """A tool call in a scripted reply.

    Attributes:
        name: Function name.
        arguments: The arguments exactly as sent on the wire (JSON text, possibly malformed).
        id: Call id (default: generated from the request number).
    """

    name: str
    arguments: str = "{}"
    id: str | None = None


@dataclass(frozen=True)
class FakeReply:
    """One scripted answer of the server.

    Attributes:
        content: The assistant text (None: no text).
        tool_calls: Tool calls of the reply.
        status: HTTP status; anything but 200 sends an OpenAI-style error body.
        delay: Seconds to wait before answering (simulates slowness or a timeout).
        raw_body: Sent verbatim instead of a JSON completion (a broken provider).
        prompt_tokens: Reported usage (default: about one token per 4 bytes of the request
            body, tools included, as providers count them).
        completion_tokens: Reported usage (default: about one token per 4 characters of output).
        cut_after: Drop the connection in the middle of the reply: after this many
            server-sent events of a stream, or after half of a plain JSON body (None: never).
        retry_after: Seconds sent as the ``Retry-After`` header (None: ``0`` on a 429, no
            header otherwise).
        prompt_token_ids: Sent as the completion's ``prompt_token_ids`` (vLLM's field with
            ``return_token_ids``; None: not sent).
        token_ids: Sent as the choice's ``token_ids`` (None: not sent).
        logprobs: Sent as the choice's ``logprobs.content`` entries, one per value (tokens
            written ``token_id:<n>`` when `token_ids` is given; None: not sent).
    """

    content: str | None = None
    tool_calls: tuple[FakeToolCall, ...] = ()
    status: int = 200
    delay: float = 0.0
    raw_body: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cut_after: int | None = None
    retry_after: float | None = None
    prompt_token_ids: tuple[int, ...] | None = None
    token_ids: tuple[int, ...] | None = None
    logprobs: tuple[float, ...] | None = None

    @classmethod
    def text(cls, content: str) -> FakeReply:
        """A plain text reply."""
        return cls(content=content)

    @classmethod
    def tool_call(
        cls, name: str, arguments: dict[str, Any] | str | None = None, *, id: str | None = None
    ) -> FakeReply:
        """A reply with one tool call; `arguments` as a dict is sent as JSON, a str verbatim."""
        text = arguments if isinstance(arguments, str) else json.dumps(arguments or {})
        return cls(tool_calls=(FakeToolCall(name, text, id),))

    @classmethod
    def tool_calls_of(cls, *calls: tuple[str, dict[str, Any]]) -> FakeReply:
        """A reply with several tool calls, given as ``(name, arguments)`` pairs."""
        return cls(tool_calls=tuple(FakeToolCall(n, json.dumps(a)) for n, a in calls))

    @classmethod
    def malformed_tool_call(cls, name: str, raw_arguments: str = '{"unclosed": ') -> FakeReply:
        """A tool call whose arguments are not valid JSON."""
        return cls(tool_calls=(FakeToolCall(name, raw_arguments),))

    @classmethod
    def empty(cls) -> FakeReply:
        """A reply with neither text nor tool calls."""
        return cls(content="")

    @classmethod
    def error(
        cls, status: int, message: str = "", *, retry_after: float | None = None
    ) -> FakeReply:
        """An HTTP error (429 rate limit, 500 server error, 400 bad request...).

        `retry_after` sets the ``Retry-After`` header, in seconds (a 429 sends 0 by default).
        """
        return cls(
            status=status, content=message or f"fake error {status}", retry_after=retry_after
        )

    @classmethod
    def timeout(cls, seconds: float, then: FakeReply | None = None) -> FakeReply:
        """Wait `seconds` before answering (set the client's timeout below it)."""
        base = then or cls(content="(answered too late)")
        return dataclasses.replace(base, delay=seconds)

    @classmethod
    def stream_cut(cls, after: int = 1, then: FakeReply | None = None) -> FakeReply:
        """Drop the connection mid-reply (the "stream cut" fault).

        A stream is cut after `after` events; a plain JSON reply after half its body. `then`
        is the reply that gets cut (default: a text).
        """
        if after < 0:
            raise ValueError(f"after must be >= 0 events, actually: {after}")
        base = then or cls(content="This reply never arrives whole.")
        return dataclasses.replace(base, cut_after=after)


@dataclass(frozen=True)
class FakeRequest:
    """A request the server received.

    Attributes:
        path: The URL path.
        body: The parsed JSON body (model, messages, tools, temperature, seed...).
        number: 1 for the first request the server received, then 2, 3...
        headers: The HTTP headers, names in lower case (``authorization`` carries the API key
            the client sent).
        size: The body's length in bytes, as received (0: unknown).
    """

    path: str
    body: dict[str, Any]
    number: int
    headers: dict[str, str] = field(default_factory=dict)
    size: int = 0

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The chat messages sent."""
        return list(self.body.get("messages") or [])

    @property
    def tool_names(self) -> list[str]:
        """Names of the tools offered."""
        return [t["function"]["name"] for t in self.body.get("tools") or []]

    @property
    def last_message(self) -> dict[str, Any]:
        """The last chat message (what the model answers)."""
        return self.messages[-1] if self.messages else {}

    @property
    def stream(self) -> bool:
        """True when the client asked for a stream of server-sent events."""
        return bool(self.body.get("stream"))

    @property
    def include_usage(self) -> bool:
        """True when a streaming client asked for the final usage chunk."""
        options = self.body.get("stream_options")
        return isinstance(options, dict) and bool(options.get("include_usage"))


Script = Callable[[FakeRequest], FakeReply]
