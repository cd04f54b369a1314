"""The one place that imports litellm (lazily, on the first model call)."""

from __future__ import annotations

import os
from functools import cache
from types import ModuleType
from typing import Any, Literal

__all__ = ["FailureKind", "classify_failure", "completion_cost", "litellm"]

FailureKind = Literal["transient", "context_window", "permanent"]
"""How a provider failure is handled: retried, ended as the participant's, or reported."""

_TRANSIENT_STATUS = frozenset({408, 409, 425, 429})


@cache
def litellm() -> ModuleType:
    """The litellm module, imported on first use.

    litellm fetches its model price map from the internet at import unless told otherwise;
    tau_env needs no network, so the bundled map is used (``LITELLM_LOCAL_MODEL_COST_MAP``,
    unless the caller set it). Its banners on errors are silenced: tau_env reports errors.

    Raises:
        ImportError: litellm is not installed; the message names the extra to install.
    """
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    try:
        import litellm as module
    except ImportError as error:  # pragma: no cover - depends on the installation
        raise ImportError("model calls need litellm: pip install 'tau-env[llm]'") from error
    module.suppress_debug_info = True
    return module


def classify_failure(error: BaseException) -> FailureKind | None:
    """What kind of provider failure `error` is; None when it is not one (a bug: re-raise).

    Transient: rate limits (429), timeouts (408), conflicts (409, 425), server errors (5xx) and
    connection failures. Context window: the request is too long for the model. Permanent:
    any other provider error (authentication, bad request, unknown model).
    """
    lib = litellm()
    if isinstance(error, lib.ContextWindowExceededError):
        return "context_window"
    if isinstance(error, lib.Timeout | lib.APIConnectionError | TimeoutError):
        return "transient"
    status = getattr(error, "status_code", None)
    if isinstance(status, int) and (status in _TRANSIENT_STATUS or status >= 500):
        return "transient"
    import openai  # installed with litellm; the base of every litellm exception

    if isinstance(error, openai.OpenAIError):
        return "permanent"
    return None


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
