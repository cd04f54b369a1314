"""OpenAI chat replies, plain or streamed, read into `LLMResponse` (the lean route's parsing).

A reply that is not what a completion looks like (not JSON, not an object, an ``error``
object in place of choices, a stream with a malformed chunk) is a ``transient`` provider
failure, as on the litellm route: a glitching server is retried. So is a reply without a
choice (``{}``, ``{"choices": []}``, a stream whose chunks carry none): the provider returned
nothing, which is no fault of the participant. A choice whose message is empty is the model's
own empty reply, which the participant layer treats as the model's error.
"""

from __future__ import annotations

import json
from typing import Any

from tau_env.llm.failures import ProviderFailure
from tau_env.llm.prices import Price
from tau_env.llm.response import LLMResponse, LLMToolCall, TurnTokens, Usage, turn_tokens

__all__ = ["StreamReader", "completion_reply", "error_detail"]


def error_detail(body: bytes | str, limit: int = 300) -> str:
    """The message of an OpenAI-style error body, else the body's start, on one line."""
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict) and isinstance(data.get("error"), dict):
        message = data["error"].get("message")
        if isinstance(message, str) and message:
            text = message
    elif isinstance(data, dict) and isinstance(data.get("error"), str):
        text = data["error"]
    line = " ".join(text.split())
    return line[:limit] if line else "(empty body)"


def _usage(data: Any) -> tuple[Usage, int]:
    """Token counts and cached prompt tokens of a ``usage`` object (zeros when absent)."""
    if not isinstance(data, dict):
        return Usage(), 0
    details = data.get("prompt_tokens_details")
    cached = details.get("cached_tokens") if isinstance(details, dict) else None
    usage = Usage(
        prompt_tokens=int(data.get("prompt_tokens") or 0),
        completion_tokens=int(data.get("completion_tokens") or 0),
    )
    return usage, int(cached or 0)


def _reply(
    model: str,
    content: str | None,
    calls: list[LLMToolCall],
    usage_data: Any,
    finish_reason: Any,
    price: Price | None,
    tokens: TurnTokens | None = None,
) -> LLMResponse:
    usage, cached = _usage(usage_data)
    cost = None
    if price is not None:
        cost = price.cost(usage.prompt_tokens, usage.completion_tokens, cached)
    return LLMResponse(
        model=model,
        content=content,
        tool_calls=tuple(calls),
        usage=usage,
        cost=cost,
        finish_reason=finish_reason if isinstance(finish_reason, str) else None,
        tokens=tokens,
    )


def completion_reply(raw: bytes, model: str, price: Price | None) -> LLMResponse:
    """An `LLMResponse` from the body of a (non-streamed) chat completion.

    Raises:
        ProviderFailure: The body is not a completion, or has no choice (``transient``).
    """
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):  # (nested deeper than the parser goes)
        raise ProviderFailure("transient", f"reply is not JSON: {error_detail(raw, 120)}") from None
    if not isinstance(data, dict) or ("error" in data and "choices" not in data):
        raise ProviderFailure("transient", f"reply is not a completion: {error_detail(raw, 120)}")
    choices = data.get("choices")
    if not (isinstance(choices, list) and choices and isinstance(choices[0], dict)):
        raise ProviderFailure("transient", f"reply has no choice: {error_detail(raw, 120)}")
    content: str | None = None
    calls: list[LLMToolCall] = []
    choice = choices[0]
    finish_reason = choice.get("finish_reason")
    message = choice.get("message")
    if isinstance(message, dict):
        text = message.get("content")
        content = text if isinstance(text, str) else None
        for index, call in enumerate(message.get("tool_calls") or ()):
            if not isinstance(call, dict):
                continue
            function = call.get("function") or {}
            calls.append(
                LLMToolCall.from_wire(
                    id=call.get("id") or f"call_{index}",
                    name=function.get("name") or "",
                    raw_arguments=function.get("arguments"),
                )
            )
    tokens = turn_tokens(
        data.get("prompt_token_ids", choice.get("prompt_token_ids")),
        choice.get("token_ids"),
        _logprob_entries(choice),
    )
    return _reply(model, content, calls, data.get("usage"), finish_reason, price, tokens)


def _logprob_entries(choice: dict[str, Any]) -> Any:
    """A choice's ``logprobs.content`` (one entry per sampled token), or None."""
    logprobs = choice.get("logprobs")
    return logprobs.get("content") if isinstance(logprobs, dict) else None


class StreamReader:
    """Assembles a streamed completion from its server-sent event lines.

    Feed every line (bytes, with or without the line end) to `feed`; it returns True at
    ``data: [DONE]``. `reply` then builds the response from the deltas: text joined, tool
    calls joined by index, the last finish reason, the usage chunk's counts.
    """

    def __init__(self, model: str, price: Price | None) -> None:
        self.model = model
        self.price = price
        self.done = False
        self._text: list[str] = []
        self._saw_text = False
        self._calls: dict[int, list[Any]] = {}  # index -> [id, name, argument pieces]
        self._finish: Any = None
        self._usage: Any = None
        self._prompt_ids: Any = None  # exact tokens, when the server streams them
        self._token_ids: list[Any] = []
        self._logprobs: list[Any] = []
        self._saw_choice = False

    def feed(self, line: bytes) -> bool:
        """Take one line of the stream; True when it was the final ``[DONE]``.

        Raises:
            ProviderFailure: A chunk is not JSON, or is an error (``transient``).
        """
        if not line.startswith(b"data:"):
            return False  # blank separators, comments, "event:" lines
        data = line[5:].strip()
        if data == b"[DONE]":
            self.done = True
            return True
        try:
            chunk = json.loads(data)
        except ValueError:
            raise ProviderFailure(
                "transient", f"stream chunk is not JSON: {error_detail(data, 120)}"
            ) from None
        if not isinstance(chunk, dict) or "error" in chunk:
            raise ProviderFailure("transient", f"stream sent an error: {error_detail(data, 200)}")
        if chunk.get("usage"):
            self._usage = chunk["usage"]
        if chunk.get("prompt_token_ids") is not None:  # vLLM: the first chunk only
            self._prompt_ids = chunk["prompt_token_ids"]
        for choice in chunk.get("choices") or ():
            if not isinstance(choice, dict) or choice.get("index", 0) != 0:
                continue
            self._saw_choice = True
            self._finish = choice.get("finish_reason") or self._finish
            self._delta(choice.get("delta") or {})
            if isinstance(choice.get("token_ids"), list):
                self._token_ids.extend(choice["token_ids"])
            entries = _logprob_entries(choice)
            if isinstance(entries, list):
                self._logprobs.extend(entries)
        return False

    def _delta(self, delta: dict[str, Any]) -> None:
        text = delta.get("content")
        if isinstance(text, str):
            self._saw_text = True
            self._text.append(text)
        for call in delta.get("tool_calls") or ():
            slot = self._calls.setdefault(int(call.get("index", 0)), [None, "", []])
            slot[0] = call.get("id") or slot[0]
            function = call.get("function") or {}
            slot[1] += function.get("name") or ""
            arguments = function.get("arguments")
            if isinstance(arguments, str):
                slot[2].append(arguments)

    def reply(self) -> LLMResponse:
        """The assembled response.

        Raises:
            ProviderFailure: No chunk carried a choice (``transient``).
        """
        if not self._saw_choice:
            raise ProviderFailure("transient", "the stream carried no choice")
        calls = [
            LLMToolCall.from_wire(
                id=slot[0] or f"call_{index}", name=slot[1], raw_arguments="".join(slot[2])
            )
            for index, slot in sorted(self._calls.items())
        ]
        content = "".join(self._text) if self._saw_text else None
        tokens = turn_tokens(self._prompt_ids, self._token_ids or None, self._logprobs or None)
        return _reply(self.model, content, calls, self._usage, self._finish, self.price, tokens)
