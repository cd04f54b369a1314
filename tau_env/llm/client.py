"""`LLMClient`: one model behind retries, a concurrency limit, a response cache and usage logs."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from tau_env.errors import ContextWindowExceeded, InfrastructureError
from tau_env.llm._backend import FailureKind, classify_failure, completion_cost, litellm
from tau_env.llm.cache import ResponseCache, request_key
from tau_env.llm.config import ModelConfig, RetryPolicy
from tau_env.llm.limits import CallLimiter
from tau_env.llm.response import LLMResponse, LLMToolCall, Usage
from tau_env.llm.usage import UsageLog
from tau_env.secrets import redact

__all__ = ["LLMClient"]

ChatMessage = Mapping[str, Any]
ToolSchema = Mapping[str, Any]


class LLMClient:
    """Calls one model through litellm.

    Every call goes through, in order: the response cache (a hit returns at once), the
    concurrency limiter, then litellm with up to ``retry.max_retries`` retries on transient
    failures (429, 5xx, timeouts, connection errors) with exponential backoff. Failures end as:

    - `InfrastructureError`: the provider still fails after the retries, or fails in a way
      retrying cannot fix (authentication, bad request). Not the participant's fault.
    - `ContextWindowExceeded`: the conversation is too long for the model (never retried).

    Replies come back as `LLMResponse` with usage and cost (None when litellm cannot price the
    model). Malformed tool-call arguments are not an error here: see `LLMToolCall.malformed`.

    Args:
        config: The model and its settings.
        retry: Backoff policy (default `RetryPolicy()`).
        limiter: Concurrency limit, shared with other clients to cap a whole run (default: a
            limiter of this client's own, 8 calls).
        cache: Response cache for deterministic replays (default: none).
        usage: Receives every reply's usage (default: a log of this client's own).
    """

    def __init__(
        self,
        config: ModelConfig,
        *,
        retry: RetryPolicy | None = None,
        limiter: CallLimiter | None = None,
        cache: ResponseCache | None = None,
        usage: UsageLog | None = None,
    ) -> None:
        if not isinstance(config, ModelConfig):
            raise TypeError(f"config must be a ModelConfig, actually: {type(config).__name__}")
        self.config = config
        self.retry = retry or RetryPolicy()
        self.limiter = limiter or CallLimiter()
        self.cache = cache
        self.usage = usage or UsageLog()
        self._jitter = random.Random()

    def __repr__(self) -> str:
        return f"LLMClient({self.config.model!r})"

    # -- public API ----------------------------------------------------------------------------
    async def complete(
        self,
        messages: Sequence[ChatMessage],
        tools: Sequence[ToolSchema] | None = None,
        *,
        tool_choice: str | Mapping[str, Any] | None = None,
        seed: int | None = None,
    ) -> LLMResponse:
        """One chat completion.

        Args:
            messages: OpenAI-format messages (see `tau_env.llm.convert`).
            tools: OpenAI function schemas offered to the model (None or empty: none).
            tool_choice: ``"auto"`` (default when tools are given), ``"required"``, ``"none"``
                or a specific function.
            seed: Sampling seed for this call (overrides ``config.seed``; per-trial seeds).

        Raises:
            InfrastructureError: The provider failed (after retries when transient).
            ContextWindowExceeded: The request does not fit the model's context window.
        """
        request, key = self._prepare(messages, tools, tool_choice, seed)
        hit = self._cached(key)
        if hit is not None:
            return hit
        started = time.monotonic()
        attempt = 0
        while True:
            attempt += 1
            try:
                async with self.limiter.slot():
                    raw = await litellm().acompletion(**request)
            except Exception as error:
                delay = self._after_failure(error, attempt)
                await asyncio.sleep(delay)
                continue
            return self._finish(raw, key, attempt, started)

    def complete_sync(
        self,
        messages: Sequence[ChatMessage],
        tools: Sequence[ToolSchema] | None = None,
        *,
        tool_choice: str | Mapping[str, Any] | None = None,
        seed: int | None = None,
    ) -> LLMResponse:
        """`complete` for synchronous code (no event loop needed; blocks the thread)."""
        request, key = self._prepare(messages, tools, tool_choice, seed)
        hit = self._cached(key)
        if hit is not None:
            return hit
        started = time.monotonic()
        attempt = 0
        while True:
            attempt += 1
            try:
                with self.limiter.sync_slot():
                    raw = litellm().completion(**request)
            except Exception as error:
                time.sleep(self._after_failure(error, attempt))
                continue
            return self._finish(raw, key, attempt, started)

    # -- steps shared by both paths ------------------------------------------------------------
    def _prepare(
        self,
        messages: Sequence[ChatMessage],
        tools: Sequence[ToolSchema] | None,
        tool_choice: str | Mapping[str, Any] | None,
        seed: int | None,
    ) -> tuple[dict[str, Any], str]:
        if not messages:
            raise ValueError("a completion needs at least one message")
        config = self.config
        seed = seed if seed is not None else config.seed
        if tools and tool_choice is None:
            tool_choice = "auto"
        if not tools:
            tools, tool_choice = None, None
        request: dict[str, Any] = {
            "model": config.model,
            "messages": [dict(m) for m in messages],
            "num_retries": 0,  # retries are ours (classified, with backoff)
            "max_retries": 0,  # no hidden retries inside the OpenAI SDK either
            "drop_params": True,  # providers that lack e.g. `seed` ignore it
            **dict(config.params),
        }
        if tools is not None:
            request["tools"] = [dict(t) for t in tools]
            request["tool_choice"] = tool_choice
        for name, value in (
            ("api_base", config.api_base),
            ("api_key", config.api_key),
            ("temperature", config.temperature),
            ("seed", seed),
            ("timeout", config.timeout),
        ):
            if value is not None:
                request[name] = value
        key = request_key(
            model=config.model,
            messages=request["messages"],
            tools=request.get("tools"),
            tool_choice=tool_choice,
            temperature=config.temperature,
            seed=seed,
            params=config.params,
        )
        return request, key

    def _cached(self, key: str) -> LLMResponse | None:
        if self.cache is None:
            return None
        hit = self.cache.get(key)
        if hit is not None:
            self.usage.record(hit)
        return hit

    def _after_failure(self, error: Exception, attempt: int) -> float:
        """The delay before retrying, or raise the classified error."""
        kind: FailureKind | None = classify_failure(error)
        if kind is None:
            raise error  # not a provider failure: a bug, which must surface as itself
        model = self.config.model
        # a provider may quote the key it received; the message is stored with the attempt
        detail = redact(f"{type(error).__name__}: {error}", (self.config.api_key,))
        if kind == "context_window":
            raise ContextWindowExceeded(f"{model}: context window exceeded: {detail}") from error
        if kind == "transient" and attempt <= self.retry.max_retries:
            return self.retry.delay(attempt, self._jitter.random())
        transient = kind == "transient"
        what = "still failing after" if transient else "failed (not retryable) after"
        raise InfrastructureError(
            f"{model}: {what} {attempt} attempt(s): {detail}",
            attempts=attempt,
            transient=transient,
        ) from error

    def _finish(self, raw: Any, key: str, attempts: int, started: float) -> LLMResponse:
        response = _parse(raw, self.config.model, attempts, time.monotonic() - started)
        if self.cache is not None:
            self.cache.put(key, response)
        self.usage.record(response)
        return response


def _parse(raw: Any, model: str, attempts: int, latency: float) -> LLMResponse:
    """An `LLMResponse` from a litellm ``ModelResponse`` (tolerates missing fields)."""
    choices = getattr(raw, "choices", None) or []
    content: str | None = None
    calls: list[LLMToolCall] = []
    finish_reason = None
    if choices:
        choice = choices[0]
        finish_reason = getattr(choice, "finish_reason", None)
        message = getattr(choice, "message", None)
        content = getattr(message, "content", None)
        for i, call in enumerate(getattr(message, "tool_calls", None) or []):
            function = getattr(call, "function", None)
            calls.append(
                LLMToolCall.from_wire(
                    id=getattr(call, "id", None) or f"call_{i}",
                    name=getattr(function, "name", None) or "",
                    raw_arguments=getattr(function, "arguments", None),
                )
            )
    usage = getattr(raw, "usage", None)
    return LLMResponse(
        model=model,
        content=content,
        tool_calls=tuple(calls),
        usage=Usage(
            prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
            completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
        ),
        cost=completion_cost(raw),
        attempts=attempts,
        latency=latency,
        finish_reason=finish_reason,
    )
