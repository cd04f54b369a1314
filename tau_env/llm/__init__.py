"""The LLM call layer: the only part of tau_env that talks to model providers.

Two routes (`tau_env.llm.routes`), chosen per model and recorded with every episode: the
lean route speaks the OpenAI chat-completions API directly over kept-alive connections, one
pool per event loop (OpenAI and every OpenAI-compatible server: vLLM, SGLang, a proxy...), a
few tenths of a millisecond of CPU per call; litellm serves every other provider. aiohttp
(proxies and ``.netrc`` for the lean route) and litellm
are imported on the first model call, never by ``import tau_env`` or ``import tau_env.llm``;
install them with the ``llm`` extra.

Typical use::

    from tau_env.llm import CallLimiter, LLMClient, ModelConfig, ResponseCache

    limiter = CallLimiter(max_concurrent=8)             # shared by every client of a run
    client = LLMClient(
        ModelConfig("gpt-4.1-2025-04-14", temperature=0.0),
        limiter=limiter,
        cache=ResponseCache("runs/cache.sqlite"),       # optional: deterministic replays
    )
    reply = await client.complete(messages, tools)      # or client.complete_sync(...)
    actions = response_actions(reply)                   # CallTool(s) or one SendMessage

Failures are classified (`tau_env.errors`), the same on both routes: `ModelAccessError` (no
key, a rejected key, an unknown model: not retried, and runners stop the run with its one-line
message), `InfrastructureError` (provider still failing after retries, or refusing the
request: record apart, replay on resume, never a pass),
`ParticipantError` (the model sent an empty reply: that side's error, reward 0, never retried)
and `ContextWindowExceeded` (deterministic: that side's error, never retried). A runner ends an
episode on a participant's error by stepping the env with ``SendMessage(content="")`` for that
side, which terminates it as ``agent_error`` / ``user_error``.
"""

from __future__ import annotations

from tau_env.llm.cache import ResponseCache, request_key
from tau_env.llm.client import LLMClient
from tau_env.llm.config import ModelConfig, RetryPolicy
from tau_env.llm.convert import response_actions, to_openai_messages, tool_call_to_openai
from tau_env.llm.limits import CallLimiter
from tau_env.llm.response import EXACT_TOKENS, LLMResponse, LLMToolCall, TurnTokens, Usage
from tau_env.llm.routes import choose_route
from tau_env.llm.usage import ModelUsage, UsageLog

__all__ = [
    "EXACT_TOKENS",
    "CallLimiter",
    "LLMClient",
    "LLMResponse",
    "LLMToolCall",
    "ModelConfig",
    "ModelUsage",
    "ResponseCache",
    "RetryPolicy",
    "TurnTokens",
    "Usage",
    "UsageLog",
    "choose_route",
    "request_key",
    "response_actions",
    "to_openai_messages",
    "tool_call_to_openai",
]
