"""Running totals of tokens and cost, per model, across many calls."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from tau_env.llm.response import LLMResponse

__all__ = ["ModelUsage", "UsageLog"]


@dataclass
class ModelUsage:
    """Totals for one model.

    Attributes:
        calls: Replies received (cache hits included).
        cached_calls: Replies served by the cache.
        attempts: Provider calls made, retries included.
        prompt_tokens: Prompt tokens of the provider calls (cache hits excluded).
        completion_tokens: Completion tokens of the provider calls (cache hits excluded).
        cost: Summed cost of the provider calls whose price is known (USD).
        unpriced_calls: Provider calls whose cost is unknown (not in `cost`).
    """

    calls: int = 0
    cached_calls: int = 0
    attempts: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0
    unpriced_calls: int = 0


class UsageLog:
    """Accumulates `LLMResponse` usage; thread-safe, shareable by several clients."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._models: dict[str, ModelUsage] = {}

    def record(self, response: LLMResponse) -> None:
        """Add one reply to the totals."""
        with self._lock:
            usage = self._models.get(response.model)
            if usage is None:
                usage = self._models[response.model] = ModelUsage()
            usage.calls += 1
            usage.attempts += response.attempts
            if response.cached:
                usage.cached_calls += 1
                return
            usage.prompt_tokens += response.usage.prompt_tokens
            usage.completion_tokens += response.usage.completion_tokens
            if response.cost is None:
                usage.unpriced_calls += 1
            else:
                usage.cost += response.cost

    def by_model(self) -> dict[str, ModelUsage]:
        """A copy of the totals, by model."""
        with self._lock:
            return {name: ModelUsage(**vars(usage)) for name, usage in self._models.items()}

    @property
    def total_cost(self) -> float:
        """Known cost summed over every model (USD)."""
        with self._lock:
            return sum(usage.cost for usage in self._models.values())
