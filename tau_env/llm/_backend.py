"""The one place that imports litellm (lazily, on the first model call)."""

from __future__ import annotations

import os
from functools import cache
from types import ModuleType
from typing import Any

from tau_env.llm.failures import ProviderFailure, failure_for_status, is_context_window_message
from tau_env.utils.extras import INSTALL, MissingExtra

__all__ = ["classify_failure", "completion_cost", "litellm"]

_MISSING_KEY_PHRASES = ("missing credentials", "api_key client option must be set", "no api key")
"""How a missing key reads in the errors litellm raises as server errors (500)."""


@cache
def litellm() -> ModuleType:
    """The litellm module, imported on first use.

    litellm fetches its model price map from the internet at import unless told otherwise;
    tau_env needs no network, so the bundled map is used (``LITELLM_LOCAL_MODEL_COST_MAP``,
    unless the caller set it). Its banners on errors are silenced: tau_env reports errors.

    Raises:
        MissingExtra: litellm is not installed; the message names the extra to install.
    """
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    try:
        import litellm as module
    except ImportError as error:  # pragma: no cover - depends on the installation
        raise MissingExtra(f"model calls need litellm: {INSTALL['llm']}") from error
    module.suppress_debug_info = True
    return module


def classify_failure(error: BaseException) -> ProviderFailure | None:
    """The provider failure `error` stands for; None when it is not one (a bug: re-raise).

    Kinds as in `tau_env.llm.failures`: context window (litellm's own class, or the message),
    transient (timeouts, connection failures, 408/409/425/429 and 5xx, with the provider's
    ``Retry-After``), access (401, 403, 404, and a missing key, which litellm reports as a
    server error), permanent (any other provider error).
    """
    lib = litellm()
    detail = f"{type(error).__name__}: {error}"
    if isinstance(error, lib.ContextWindowExceededError):
        return ProviderFailure("context_window", detail)
    if any(phrase in str(error).lower() for phrase in _MISSING_KEY_PHRASES):
        return ProviderFailure("access", detail, status=401)
    if isinstance(error, lib.Timeout | lib.APIConnectionError | TimeoutError):
        return ProviderFailure("transient", detail)
    status = getattr(error, "status_code", None)
    if isinstance(status, int) and status != 200:
        return failure_for_status(status, detail, _headers(error))
    import openai  # installed with litellm; the base of every litellm exception

    if isinstance(error, openai.OpenAIError):
        if is_context_window_message(detail):
            return ProviderFailure("context_window", detail)
        return ProviderFailure("transient" if status == 200 else "permanent", detail)
    return None


def _headers(error: BaseException) -> dict[str, str]:
    """The HTTP headers of the reply an exception came from (for ``Retry-After``)."""
    for source in (getattr(error, "response", None), error):
        headers = getattr(source, "headers", None)
        if headers:
            try:
                return {str(k): str(v) for k, v in dict(headers).items()}
            except (TypeError, ValueError):
                continue
    return {}


def completion_cost(raw: Any) -> float | None:
    """The price of a completion in USD (litellm's tables); None for unpriced models.

    litellm prices every response while logging it and keeps the figure in
    ``_hidden_params["response_cost"]``; reading it saves a second lookup (about 0.7 ms of CPU
    per call, most of it spent failing to find unpriced models). The lookup runs only when the
    response carries no figure.
    """
    hidden = getattr(raw, "_hidden_params", None)
    if isinstance(hidden, dict) and "response_cost" in hidden:
        cost = hidden["response_cost"]
    else:
        try:
            cost = litellm().completion_cost(completion_response=raw)
        except Exception:  # unknown model or missing usage: the cost is unknown, not an error
            return None
    return float(cost) if isinstance(cost, int | float) else None
