"""Chat requests as bytes: the JSON body of an OpenAI chat-completions call and its cache key."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tau_env.llm.cache import request_key

__all__ = ["ChatCall", "RequestWriter"]


@dataclass(frozen=True)
class ChatCall:
    """One model call, ready to send: the request body and, when wanted, its cache key.

    Attributes:
        body: The JSON request body, as sent to an OpenAI-compatible endpoint.
        key: The response-cache key (`tau_env.llm.cache.request_key` of the same request);
            None when it was not asked for.
        messages: The messages, as given.
        tools: The tool schemas offered (None: none).
        tool_choice: The tool choice sent (None when no tools are offered).
        seed: The sampling seed sent (None: none).
    """

    body: bytes
    key: str | None
    messages: Sequence[Mapping[str, Any]]
    tools: Sequence[Mapping[str, Any]] | None
    tool_choice: str | Mapping[str, Any] | None
    seed: int | None


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
        self,
        messages: Sequence[Mapping[str, Any]],
        tools: Sequence[Mapping[str, Any]] | None,
        tool_choice: str | Mapping[str, Any] | None,
        seed: int | None,
        *,
        stream: bool = False,
        with_key: bool = False,
    ) -> ChatCall:
        """The request for `messages` (the conversation so far) and the tools offered.

        Args:
            messages: OpenAI-format messages (at least one).
            tools: Function schemas (None or empty: none, and no tool choice is sent).
            tool_choice: Sent with tools only; ``"auto"`` when None.
            seed: Sampling seed (None: not sent).
            stream: Ask for server-sent events, with the usage chunk.
            with_key: Compute the response-cache key as well.
        """
        if not messages:
            raise ValueError("a completion needs at least one message")
        if not tools:
            tools, tool_choice = None, None
        elif tool_choice is None:
            tool_choice = "auto"
        body: dict[str, Any] = {"model": self._model, "messages": list(messages)}
        if tools is not None:
            body["tools"] = list(tools)
        body.update(self._settings)
        if tool_choice is not None:
            body["tool_choice"] = tool_choice
        if seed is not None:
            body["seed"] = seed
        if stream:
            body["stream"] = True
            body["stream_options"] = {"include_usage": True}
        key = None
        if with_key:
            key = request_key(
                model=self._key_model,
                messages=messages,
                tools=tools,
                tool_choice=tool_choice,
                temperature=self._temperature,
                seed=seed,
                params=self._params,
            )
        return ChatCall(json.dumps(body).encode(), key, messages, tools, tool_choice, seed)
