"""Which model to call and how: `ModelConfig` and `RetryPolicy` (plain data, no litellm)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["ROUTES", "ModelConfig", "RetryPolicy"]

ROUTES: tuple[str, ...] = ("auto", "lean", "litellm")
"""Values of `ModelConfig.route`."""


@dataclass(frozen=True)
class ModelConfig:
    """A model as litellm names it, plus the call settings that shape its replies.

    Models are always injected by the caller; tau_env names none by default.

    Attributes:
        model: litellm model string (``"gpt-4.1-2025-04-14"``, ``"openai/<name>"`` for any
            OpenAI-compatible endpoint, ``"anthropic/..."``...).
        api_base: Endpoint URL, for OpenAI-compatible servers (None: the provider's default).
        api_key: API key (None: litellm reads the provider's environment variable).
        temperature: Sampling temperature (None: the provider's default).
        seed: Sampling seed sent to the provider (None: none). Per-trial seeds override it.
        timeout: Seconds before a call is abandoned (and retried as a transient failure).
        params: Further request parameters (``max_tokens``, ``top_p``...; on the litellm
            route any litellm keyword argument). Part of the cache key.
        route: ``"auto"`` (default: the lean route for OpenAI-compatible endpoints, litellm
            for other providers; see `tau_env.llm.routes`), ``"lean"`` or ``"litellm"``.
        stream: Receive replies as server-sent events (the reply is the same; some servers
            and proxies handle long generations better streamed).
    """

    model: str
    api_base: str | None = None
    api_key: str | None = None
    temperature: float | None = 0.0
    seed: int | None = None
    timeout: float | None = 120.0
    params: Mapping[str, Any] = field(default_factory=dict)
    route: Literal["auto", "lean", "litellm"] = "auto"
    stream: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.model, str) or not self.model.strip():
            raise ValueError(f"model must be a non-empty string, actually: {self.model!r}")
        if self.timeout is not None and self.timeout <= 0:
            raise ValueError(f"timeout must be > 0 seconds, actually: {self.timeout}")
        if self.route not in ROUTES:
            raise ValueError(f"route must be one of {list(ROUTES)}, actually: {self.route!r}")
        reserved = {
            "model",
            "messages",
            "tools",
            "tool_choice",
            "api_base",
            "api_key",
            "timeout",
            "stream",
            "stream_options",
            "route",
        }
        clash = sorted(reserved & set(self.params))
        if clash:
            raise ValueError(f"params must not set {clash}; use the ModelConfig fields")

    def describe(self) -> dict[str, Any]:
        """The settings that identify replies, for run metadata (no API key)."""
        return {
            "model": self.model,
            "api_base": self.api_base,
            "temperature": self.temperature,
            "seed": self.seed,
            "params": dict(self.params),
        }


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff for transient provider failures (429, 5xx, timeouts, connection).

    The delay before retry ``n`` (1-based) is ``min(max_delay, initial_delay * multiplier **
    (n - 1))``, stretched by up to ``jitter`` (a fraction) so that concurrent callers spread
    out. A provider's ``Retry-After`` is a floor: the wait is never shorter than it asks, and
    a provider asking for more than ``max_retry_after`` seconds ends the retries at once.
    Other failures are never retried.

    Attributes:
        max_retries: Retries after the first attempt (0: none).
        initial_delay: Seconds before the first retry.
        multiplier: Growth factor of the delay.
        max_delay: Upper bound of one delay, in seconds.
        jitter: Random extra delay, as a fraction of the delay.
        max_retry_after: The longest ``Retry-After`` waited for, in seconds.
    """

    max_retries: int = 4
    initial_delay: float = 1.0
    multiplier: float = 2.0
    max_delay: float = 30.0
    jitter: float = 0.1
    max_retry_after: float = 120.0

    def __post_init__(self) -> None:
        if self.max_retries < 0:
            raise ValueError(f"max_retries must be >= 0, actually: {self.max_retries}")
        if min(self.initial_delay, self.max_delay, self.jitter, self.max_retry_after) < 0:
            raise ValueError("delays and jitter must be >= 0")
        if self.multiplier < 1:
            raise ValueError(f"multiplier must be >= 1, actually: {self.multiplier}")

    def delay(self, retry: int, fraction: float = 0.0) -> float:
        """Seconds to wait before retry number `retry` (1-based); `fraction` in [0, 1)."""
        base = min(self.max_delay, self.initial_delay * self.multiplier ** (retry - 1))
        return base * (1.0 + self.jitter * fraction)

    def wait(
        self, retry: int, fraction: float = 0.0, retry_after: float | None = None
    ) -> float | None:
        """Seconds to wait before retry `retry` (1-based), or None to give up.

        The backoff, or longer when the provider's ``Retry-After`` (`retry_after` seconds)
        asks; None when it asks for more than `max_retry_after`.
        """
        backoff = self.delay(retry, fraction)
        if retry_after is None:
            return backoff
        if retry_after > self.max_retry_after:
            return None
        return max(backoff, retry_after)
