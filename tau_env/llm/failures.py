"""How a provider failure is handled, the same on every route: retried, the side's, or fatal.

Both routes (`tau_env.llm.openai_http` and `tau_env.llm.litellm_route`) turn what went wrong
into a `ProviderFailure` of one kind; the client's single retry loop acts on the kind:

* ``transient``: rate limits (429), timeouts (408), conflicts (409, 425), server errors (5xx),
  connection failures, a reply cut off or not JSON. Retried with backoff, waiting at least as
  long as the provider's ``Retry-After`` asks; then an `InfrastructureError`.
* ``context_window``: the request is too long for the model: `ContextWindowExceeded`.
* ``access``: the provider refuses the credentials or does not know the model (401, 403, 404,
  a missing key). No retry and no other episode can fix it: `ModelAccessError`, whose one-line
  message names the provider and the environment variable to set; runners stop the run.
* ``permanent``: any other refusal (400...): an `InfrastructureError`, not retried.
"""

from __future__ import annotations

import email.utils
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "FailureKind",
    "Provider",
    "ProviderFailure",
    "access_message",
    "api_key_variable",
    "failure_for_status",
    "is_context_window_message",
    "missing_key_message",
    "retry_after_seconds",
]

FailureKind = Literal["transient", "context_window", "access", "permanent"]
"""How a provider failure is handled (see the module docstring)."""

TRANSIENT_STATUS = frozenset({408, 409, 425, 429})
"""Client-error statuses that are worth retrying (server errors, 5xx, always are)."""

ACCESS_STATUS = frozenset({401, 403, 404})
"""Statuses that mean the credentials or the model name are wrong."""

_CONTEXT_PHRASES = (
    "context_length_exceeded",
    "maximum context length",
    "context window",
    "prompt is too long",
    "input is too long",
    "too many tokens",
)

_KEY_VARIABLES = {
    "openai": "OPENAI_API_KEY",
    "azure": "AZURE_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "gemini": "GEMINI_API_KEY",
    "vertex_ai": "GOOGLE_APPLICATION_CREDENTIALS",
    "bedrock": "AWS_ACCESS_KEY_ID",
    "mistral": "MISTRAL_API_KEY",
    "groq": "GROQ_API_KEY",
    "together_ai": "TOGETHERAI_API_KEY",
    "deepseek": "DEEPSEEK_API_KEY",
    "xai": "XAI_API_KEY",
    "openrouter": "OPENROUTER_API_KEY",
    "cohere": "COHERE_API_KEY",
    "fireworks_ai": "FIREWORKS_AI_API_KEY",
    "perplexity": "PERPLEXITYAI_API_KEY",
}


class ProviderFailure(Exception):
    """A failed provider call, classified (raised by a route, handled by the client).

    Attributes:
        kind: How the failure is handled.
        detail: What the provider or the connection said (one line).
        retry_after: Seconds the provider asked to wait before retrying, if it said.
        status: The HTTP status, when there was one.
    """

    def __init__(
        self,
        kind: FailureKind,
        detail: str,
        *,
        retry_after: float | None = None,
        status: int | None = None,
    ) -> None:
        super().__init__(detail)
        self.kind: FailureKind = kind
        self.detail = detail
        self.retry_after = retry_after
        self.status = status


@dataclass(frozen=True)
class Provider:
    """Who a route talks to, for error messages.

    Attributes:
        name: ``"OpenAI"``, ``"the OpenAI-compatible server at <url>"``, ``"anthropic"``...
        key_variable: The environment variable that holds its API key.
    """

    name: str
    key_variable: str


def api_key_variable(provider: str) -> str:
    """The environment variable of a litellm provider's API key (a guess for unknown ones)."""
    return _KEY_VARIABLES.get(provider, f"{provider.upper()}_API_KEY")


def is_context_window_message(text: str) -> bool:
    """True when an error message says the request exceeds the model's context window."""
    lowered = text.lower()
    return any(phrase in lowered for phrase in _CONTEXT_PHRASES)


def failure_for_status(
    status: int, detail: str, headers: Mapping[str, str] | None = None
) -> ProviderFailure:
    """The failure an HTTP error status stands for (``headers`` give ``Retry-After``)."""
    if status in TRANSIENT_STATUS or status >= 500:
        return ProviderFailure(
            "transient", detail, retry_after=retry_after_seconds(headers or {}), status=status
        )
    if status in ACCESS_STATUS:
        return ProviderFailure("access", detail, status=status)
    if is_context_window_message(detail):
        return ProviderFailure("context_window", detail, status=status)
    return ProviderFailure("permanent", detail, status=status)


def retry_after_seconds(headers: Mapping[str, str]) -> float | None:
    """Seconds a provider asks to wait before a retry; None when it says nothing usable.

    ``retry-after-ms`` (OpenAI's) wins over ``Retry-After`` (seconds or an HTTP date).
    Header names are matched case-insensitively.
    """
    lowered = {name.lower(): value for name, value in headers.items()}
    milliseconds = lowered.get("retry-after-ms")
    if milliseconds is not None:
        try:
            return max(0.0, float(milliseconds) / 1000.0)
        except ValueError:
            pass
    value = lowered.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def access_message(provider: Provider, model: str, status: int | None, detail: str) -> str:
    """One line for an ``access`` failure: what was refused, and what to set or check."""
    if status == 404:
        return (
            f"{provider.name} does not know model {model!r} ({detail}); check the model name, "
            "and that the api_base ends where the provider's API starts (often /v1)"
        )
    if status == 403:
        return (
            f"{provider.name} refused access to model {model!r} ({detail}); check that "
            f"{provider.key_variable} holds a key allowed to use it"
        )
    return (
        f"{provider.name} rejected the API key for model {model!r} ({detail}); "
        f"set {provider.key_variable} to a valid key"
    )


def missing_key_message(provider: Provider, model: str) -> str:
    """One line for a call that cannot be made: no API key is set for the provider."""
    return (
        f"no API key for {provider.name} (model {model!r}): set {provider.key_variable}, or "
        "point the model at a local OpenAI-compatible server with an api_base (which needs none)"
    )
