"""Which route a model's calls take: the lean OpenAI route or litellm, chosen from the config.

``ModelConfig.route`` is ``"auto"`` by default, which picks:

* ``"lean"`` (`tau_env.llm.openai_http`) for OpenAI-compatible endpoints: a model named
  ``openai/<name>`` (litellm's spelling for "OpenAI API, any server"), a bare name that
  litellm's table lists as an OpenAI model (``gpt-4.1``...), or a bare name the table does
  not know, given with an ``api_base``;
* ``"litellm"`` (`tau_env.llm.litellm_route`) for everything else: other providers'
  prefixes (``anthropic/``, ``azure/``...), models litellm knows from other providers, and
  configs whose ``params`` use litellm-only options (``mock_response``, ``api_version``...).

``"lean"`` or ``"litellm"`` forces a route. The route taken is `LLMClient.route` and is
recorded with every episode (``ParticipantInfo.route``).
"""

from __future__ import annotations

from typing import Any, Literal, Protocol

from tau_env.llm.config import ModelConfig
from tau_env.llm.failures import Provider
from tau_env.llm.prices import listed_provider
from tau_env.llm.response import LLMResponse
from tau_env.llm.wire import ChatCall, ChatRequest

__all__ = ["LITELLM_ONLY_PARAMS", "Route", "RouteName", "choose_route", "make_route"]

RouteName = Literal["lean", "litellm"]

LITELLM_ONLY_PARAMS = frozenset(
    {
        "mock_response",
        "mock_tool_calls",
        "mock_delay",
        "metadata",
        "custom_llm_provider",
        "api_version",
        "base_model",
        "caching",
        "fallbacks",
        "input_cost_per_token",
        "output_cost_per_token",
        "vertex_project",
        "vertex_location",
        "aws_region_name",
    }
)
"""Parameters only litellm understands: a config using one goes through litellm."""


class Route(Protocol):
    """What the client needs from a route."""

    name: str
    provider: Provider

    def fresh(self) -> Route:
        """The same route for another conversation (per-conversation state not shared)."""
        ...

    def check_access(self) -> None:
        """Raise `tau_env.errors.ModelAccessError` when no call can succeed (no key)."""

    def prepare(self, request: ChatRequest, *, with_key: bool) -> ChatCall:
        """The call for one request (with its cache key when asked)."""
        ...

    async def send(self, call: ChatCall) -> LLMResponse:
        """Make the call once (raises `tau_env.llm.failures.ProviderFailure`)."""
        ...

    def describe(self) -> dict[str, Any]:
        """Where calls go (no key)."""
        ...


def choose_route(config: ModelConfig) -> RouteName:
    """The route ``config`` takes (see the module docstring)."""
    if config.route != "auto":
        return config.route
    if LITELLM_ONLY_PARAMS & set(config.params):
        return "litellm"
    provider, slash, _ = config.model.partition("/")
    if slash:
        return "lean" if provider == "openai" else "litellm"
    known = listed_provider(config.model)
    if known == "openai" or (known is None and config.api_base is not None):
        return "lean"
    return "litellm"


def make_route(config: ModelConfig) -> Route:
    """The route object for ``config`` (nothing heavy imported yet)."""
    if choose_route(config) == "lean":
        from tau_env.llm.openai_http import OpenAIRoute

        return OpenAIRoute(config)
    from tau_env.llm.litellm_route import LitellmRoute

    return LitellmRoute(config)
