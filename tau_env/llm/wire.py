"""Chat requests as bytes: the JSON body of an OpenAI chat-completions call and its cache key."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tau_env.llm.cache import request_key

__all__ = ["ChatCall", "ChatRequest", "RequestWriter"]


@dataclass(frozen=True, slots=True)
class ChatRequest:
    """What one model call asks for, as the client was given it.

    Attributes:
        messages: OpenAI-format messages (the conversation so far; at least one).
        tools: Function schemas offered to the model (None or empty: none).
        tool_choice: Sent with tools only; ``"auto"`` when None.
        seed: Sampling seed (None: not sent).
    """

    messages: Sequence[Mapping[str, Any]]
    tools: Sequence[Mapping[str, Any]] | None = None
    tool_choice: str | Mapping[str, Any] | None = None
    seed: int | None = None

    def as_sent(self) -> ChatRequest:
        """The request as it is sent: no tool choice without tools, ``"auto"`` by default.

        Raises:
            ValueError: There is no message.
        """
        if not self.messages:
            raise ValueError("a completion needs at least one message")
        if not self.tools:
            if self.tools is None and self.tool_choice is None:
                return self
            return ChatRequest(self.messages, seed=self.seed)
        if self.tool_choice is None:
            return ChatRequest(self.messages, self.tools, "auto", self.seed)
        return self


@dataclass(frozen=True)
class ChatCall:
    """One model call, ready to send: the request body and, when wanted, its cache key.

    Attributes:
        body: The JSON request body, as sent to an OpenAI-compatible endpoint.
        key: The response-cache key (`tau_env.llm.cache.request_key` of the same request);
            None when it was not asked for.
        request: The request as sent (`ChatRequest.as_sent`).
    """

    body: bytes
    key: str | None
    request: ChatRequest


class RequestWriter:
    """Writes the chat requests of one model's calls.

    Args:
        model: The model named in the body (the provider's name, without a routing prefix).
        key_model: The model named in the cache key (as configured, so both routes share keys).
        settings: Fixed body fields (temperature, sampling parameters...), in body order.
        params: The configured extra parameters (part of the cache key).
        temperature: The configured temperature (part of the cache key).
    """

    def __init__(
        self,
        *,
        model: str,
        key_model: str,
        settings: Mapping[str, Any],
        params: Mapping[str, Any],
        temperature: float | None,
    ) -> None:
        self._model = model
        self._key_model = key_model
        self._settings = {name: value for name, value in settings.items() if value is not None}
        self._params = dict(params)
        self._temperature = temperature

    def fresh(self) -> RequestWriter:
        """A writer for another conversation: this one (a writer keeps no conversation state)."""
        return self

    def call(
        self, request: ChatRequest, *, stream: bool = False, with_key: bool = False
    ) -> ChatCall:
        """The call for `request` (its body and, when asked, its cache key).

        Args:
            request: The conversation so far, the tools offered, the tool choice, the seed.
            stream: Ask for server-sent events, with the usage chunk.
            with_key: Compute the response-cache key as well.

        Raises:
            ValueError: The request has no message.
        """
        request = request.as_sent()
        body: dict[str, Any] = {"model": self._model, "messages": list(request.messages)}
        if request.tools is not None:
            body["tools"] = list(request.tools)
        body.update(self._settings)
        if request.tool_choice is not None:
            body["tool_choice"] = request.tool_choice
        if request.seed is not None:
            body["seed"] = request.seed
        if stream:
            body["stream"] = True
            body["stream_options"] = {"include_usage": True}
        key = None
        if with_key:
            key = request_key(
                model=self._key_model,
                messages=request.messages,
                tools=request.tools,
                tool_choice=request.tool_choice,
                temperature=self._temperature,
                seed=request.seed,
                params=self._params,
            )
        return ChatCall(json.dumps(body).encode(), key, request)
