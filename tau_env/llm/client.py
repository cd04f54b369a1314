"""`LLMClient`: one model behind retries, a concurrency limit, a response cache and usage logs."""

from __future__ import annotations

import asyncio
import copy
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from tau_env.blocking import blocking
from tau_env.errors import ContextWindowExceeded, InfrastructureError, ModelAccessError
from tau_env.llm.cache import ResponseCache
from tau_env.llm.config import ModelConfig, RetryPolicy
from tau_env.llm.failures import ProviderFailure, access_message
from tau_env.llm.limits import CallLimiter
from tau_env.llm.pool import run_sync
from tau_env.llm.response import LLMResponse
from tau_env.llm.routes import Route, make_route
from tau_env.llm.usage import UsageLog
from tau_env.llm.wire import ChatCall, ChatRequest
from tau_env.secrets import keep_secrets, keep_url_secrets, redact

__all__ = ["LLMClient"]

_JITTER = random.Random()
"""Backoff jitter for every client (a generator per client would cost an OS-entropy seeding per
episode, and jitter needs no separate streams)."""

ChatMessage = Mapping[str, Any]
ToolSchema = Mapping[str, Any]


class LLMClient:
    """Calls one model, over the lean OpenAI route or through litellm (`tau_env.llm.routes`).

    Every call goes through, in order: the response cache (a hit returns at once), the
    concurrency limiter, then the route with up to ``retry.max_retries`` retries on transient
    failures (429, 5xx, timeouts, connection errors, replies cut off or not JSON), waiting the
    exponential backoff or the provider's ``Retry-After`` when longer. Synchronous and
    asynchronous calls share this one loop (`complete_sync` runs `complete` on a background
    event loop). Failures end as:

    - `ModelAccessError`: the key is missing or rejected, or the model is unknown (401, 403,
      404). Never retried; runners stop the run on it.
    - `InfrastructureError`: the provider still fails after the retries, or refuses the
      request in a way retrying cannot fix (bad request). Not the participant's fault.
    - `ContextWindowExceeded`: the conversation is too long for the model (never retried).

    Replies come back as `LLMResponse` with usage and cost (None when the model has no known
    price). Malformed tool-call arguments are not an error here: see `LLMToolCall.malformed`.

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
        # Whatever the key and endpoint carry is redacted wherever it shows up later, even
        # echoed by the provider in a reply or an error the store keeps.
        keep_secrets(config.api_key)
        keep_url_secrets(config.api_base)
        self.retry = retry or RetryPolicy()
        self.limiter = limiter or CallLimiter()
        self._given = (limiter is not None, usage is not None)  # shared by `fresh` copies
        self.cache = cache
        self.usage = usage or UsageLog()
        self._route: Route = make_route(config)
        self._access_checked = False

    def fresh(self) -> LLMClient:
        """A client of the same model, settings and cache, for another conversation.

        As ``LLMClient(config, ...)`` with the same arguments would be: a limiter or usage log
        given to this client is shared, one of its own is new. The route is copied rather
        than derived again (runners make a client per episode side).
        """
        client = copy.copy(self)
        client.limiter = self.limiter if self._given[0] else CallLimiter()
        client.usage = self.usage if self._given[1] else UsageLog()
        client._route = self._route.fresh()
        return client

    def __repr__(self) -> str:
        return f"LLMClient({self.config.model!r}, route={self.route!r})"

    @property
    def route(self) -> str:
        """The route calls take: ``"lean"`` (OpenAI-compatible HTTP) or ``"litellm"``."""
        return self._route.name

    def check_access(self) -> None:
        """Fail now if no call can succeed for want of an API key (runners call it up front).

        Raises:
            ModelAccessError: No key is set for a provider that needs one; the message names
                the environment variable.
        """
        if not self._access_checked:
            self._route.check_access()
            self._access_checked = True

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
            ModelAccessError: The key is missing or rejected, or the model is unknown.
            InfrastructureError: The provider failed (after retries when transient).
            ContextWindowExceeded: The request does not fit the model's context window.
        """
        seed = seed if seed is not None else self.config.seed
        request = ChatRequest(messages, tools, tool_choice, seed)
        call = self._route.prepare(request, with_key=self.cache is not None)
        hit = self._cached(call)
        if hit is not None:
            return hit
        self.check_access()
        started = time.monotonic()
        attempt = 0
        while True:
            attempt += 1
            try:
                async with self.limiter.slot():
                    reply = await self._route.send(call)
            except ProviderFailure as failure:
                await asyncio.sleep(self._after_failure(failure, attempt))
                continue
            return self._finish(reply, call, attempt, started)

    complete_sync = blocking(complete, run_sync)
    """`complete` for synchronous code (blocks the thread; no event loop of yours needed)."""

    # -- steps ---------------------------------------------------------------------------------
    def _cached(self, call: ChatCall) -> LLMResponse | None:
        if self.cache is None or call.key is None:
            return None
        hit = self.cache.get(call.key)
        if hit is not None:
            self.usage.record(hit)
        return hit

    def _after_failure(self, failure: ProviderFailure, attempt: int) -> float:
        """The delay before retrying, or raise the classified error."""
        model = self.config.model
        # a provider may quote the key it received; the message is stored with the attempt
        detail = redact(failure.detail, (self.config.api_key,))
        if failure.kind == "context_window":
            raise ContextWindowExceeded(f"{model}: context window exceeded: {detail}") from failure
        if failure.kind == "access":
            message = access_message(self._route.provider, model, failure.status, detail)
            raise ModelAccessError(message, attempts=attempt) from failure
        transient = failure.kind == "transient"
        if transient and attempt <= self.retry.max_retries:
            delay = self.retry.wait(attempt, _JITTER.random(), failure.retry_after)
            if delay is not None:
                return delay
            detail += f" (the provider asks to wait {failure.retry_after:.0f} s: giving up)"
        what = "still failing after" if transient else "failed (not retryable) after"
        raise InfrastructureError(
            f"{model}: {what} {attempt} attempt(s): {detail}",
            attempts=attempt,
            transient=transient,
        ) from failure

    def _finish(
        self, reply: LLMResponse, call: ChatCall, attempts: int, started: float
    ) -> LLMResponse:
        response = replace(reply, attempts=attempts, latency=time.monotonic() - started)
        if self.cache is not None and call.key is not None:
            self.cache.put(call.key, response)
        self.usage.record(response)
        return response
