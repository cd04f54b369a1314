"""The litellm route: every provider litellm supports (Anthropic, Gemini, Bedrock, Azure...).

One call is one ``litellm.acompletion`` with litellm's and the OpenAI SDK's own retries off
(the client retries, classified, honouring ``Retry-After``). Streaming collects the chunks and
rebuilds the completion with ``litellm.stream_chunk_builder``. litellm's exceptions are
classified by `tau_env.llm._backend.classify_failure` into the kinds of
`tau_env.llm.failures`, as the lean route classifies HTTP statuses.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

from tau_env.errors import ModelAccessError
from tau_env.llm._backend import classify_failure, completion_cost, litellm
from tau_env.llm.config import ModelConfig
from tau_env.llm.failures import Provider, ProviderFailure, api_key_variable, missing_key_message
from tau_env.llm.prices import local_endpoint
from tau_env.llm.response import LLMResponse, LLMToolCall, TurnTokens, Usage, turn_tokens
from tau_env.llm.wire import ChatCall, ChatRequest, RequestWriter
from tau_env.utils.extras import require_extra
from tau_env.utils.surrogates import replace_surrogates

__all__ = ["LitellmRoute", "parse_model_response"]

NO_KEY = "no-key"
"""Sent as the key to an OpenAI-compatible api_base when none is set (local servers need
none, but the OpenAI SDK under litellm refuses to call without one)."""


class LitellmRoute:
    """Sends one client's calls through litellm.

    Args:
        config: The model, in litellm's naming.
    """

    name = "litellm"

    def __init__(self, config: ModelConfig) -> None:
        self.config = config
        provider, slash, _ = config.model.partition("/")
        self.provider_id = provider if slash else "openai"
        self.provider = Provider(self.provider_id, api_key_variable(self.provider_id))
        kwargs: dict[str, Any] = {
            "model": config.model,
            "num_retries": 0,  # retries are the client's (classified, with backoff)
            "max_retries": 0,  # no hidden retries inside the OpenAI SDK either
            "drop_params": True,  # providers that lack e.g. `seed` ignore it
            **dict(config.params),
        }
        for name, value in (
            ("api_base", config.api_base),
            ("api_key", config.api_key),
            ("temperature", config.temperature),
            ("timeout", config.timeout),
        ):
            if value is not None:
                kwargs[name] = value
        if config.stream:
            kwargs["stream"] = True
            kwargs["stream_options"] = {"include_usage": True}
        self.kwargs = kwargs
        self._checked = False
        # A local server's model has no list price unless the config gives one.
        self._unpriced = local_endpoint(config.api_base) and not (
            {"input_cost_per_token", "output_cost_per_token"} & set(config.params)
        )
        # Only for cache keys: the same keys as the lean route's.
        self.writer = RequestWriter(
            model=config.model,
            key_model=config.model,
            settings={},
            params=config.params,
            temperature=config.temperature,
        )

    def fresh(self) -> LitellmRoute:
        """The same route for another conversation (its own cache-key writer)."""
        route = copy.copy(self)
        route.kwargs = dict(self.kwargs)
        route.writer = self.writer.fresh()
        return route

    def check_access(self) -> None:
        """Raise `ModelAccessError` when litellm finds no API key for the provider.

        A model with an ``api_base`` and no key is sent a placeholder key instead (an
        OpenAI-compatible local server needs none).

        Raises:
            MissingExtra: litellm is not installed (the message names the extra).
        """
        if self._checked:
            return
        require_extra("llm", "litellm", feature=f"a model call to {self.config.model}")
        self._checked = True
        config = self.config
        if config.api_key is not None:
            return
        lib = litellm()
        try:
            found = lib.validate_environment(model=config.model, api_base=config.api_base)
        except Exception:  # an unknown provider: litellm's own call will say what is wrong
            return
        self.provider_id = _provider_of(lib, config.model) or self.provider_id
        missing = [str(name) for name in found.get("missing_keys") or ()]
        variable = missing[0] if missing else api_key_variable(self.provider_id)
        self.provider = Provider(self.provider_id, variable)
        if found.get("keys_in_environment", True):
            return
        if config.api_base is not None and self.provider_id == "openai":
            self.kwargs["api_key"] = NO_KEY
            return
        raise ModelAccessError(missing_key_message(self.provider, config.model))

    def prepare(self, request: ChatRequest, *, with_key: bool) -> ChatCall:
        """The call for one request; litellm writes the body, so only the cache key is made."""
        if with_key:
            return self.writer.call(request, with_key=True)
        return ChatCall(b"", None, request.as_sent())

    async def send(self, call: ChatCall) -> LLMResponse:
        """Make the call once.

        Raises:
            ProviderFailure: The call failed (classified).
        """
        self.check_access()
        # litellm encodes the request as UTF-8, which has no form for a lone surrogate (half
        # an emoji from an earlier reply): the provider gets U+FFFD there instead.
        asked = call.request
        messages = replace_surrogates([dict(m) for m in asked.messages])
        request = {**self.kwargs, "messages": messages}
        if asked.tools is not None:
            request["tools"] = [dict(t) for t in asked.tools]
            request["tool_choice"] = asked.tool_choice
        if asked.seed is not None:
            request["seed"] = asked.seed
        lib = litellm()
        chunks: list[Any] | None = None
        try:
            raw = await lib.acompletion(**request)
            if self.config.stream:
                chunks = [chunk async for chunk in raw]
                raw = lib.stream_chunk_builder(chunks, messages=request["messages"])
        except Exception as error:
            failure = classify_failure(error)
            if failure is None:
                raise  # not a provider failure: a bug, which must surface as itself
            raise failure from error
        if raw is None:
            raise ProviderFailure("transient", "the stream carried no chunk")
        reply = parse_model_response(raw, self.config.model, chunks)
        if self._unpriced and reply.cost is not None:  # litellm prices by the name alone
            reply = dataclasses.replace(reply, cost=None)
        return reply

    def describe(self) -> dict[str, Any]:
        """Where calls go (for debugging and reports; no key)."""
        return {"route": self.name, "model": self.config.model, "api_base": self.config.api_base}


def _provider_of(lib: Any, model: str) -> str | None:
    try:
        return str(lib.get_llm_provider(model)[1])
    except Exception:
        return None


def parse_model_response(raw: Any, model: str, chunks: list[Any] | None = None) -> LLMResponse:
    """An `LLMResponse` from a litellm ``ModelResponse`` (tolerates missing fields).

    Exact token ids and logprobs (`TurnTokens`) are read from the response, or, for a stream
    (litellm's assembled response drops some of them), from its `chunks`.

    Raises:
        ProviderFailure: The reply has no choice (``transient``, as on the lean route).
    """
    choices = getattr(raw, "choices", None) or []
    if not choices:
        raise ProviderFailure("transient", "reply has no choice")
    choice = choices[0]
    finish_reason = getattr(choice, "finish_reason", None)
    message = getattr(choice, "message", None)
    content: str | None = getattr(message, "content", None)
    calls: list[LLMToolCall] = []
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
        finish_reason=finish_reason,
        tokens=_tokens(raw, choice) if chunks is None else _streamed_tokens(chunks),
    )


def _tokens(raw: Any, choice: Any) -> TurnTokens | None:
    """The exact tokens litellm kept from the server's reply (it keeps unknown fields)."""
    return turn_tokens(
        getattr(raw, "prompt_token_ids", None),
        getattr(choice, "token_ids", None),
        _entries(getattr(choice, "logprobs", None)),
    )


def _streamed_tokens(chunks: list[Any]) -> TurnTokens | None:
    prompt: Any = None
    ids: list[Any] = []
    entries: list[Any] = []
    for chunk in chunks:
        if prompt is None:
            prompt = getattr(chunk, "prompt_token_ids", None)
        for choice in getattr(chunk, "choices", None) or ():
            if isinstance(getattr(choice, "token_ids", None), list):
                ids.extend(choice.token_ids)
            entries.extend(_entries(getattr(choice, "logprobs", None)) or ())
    return turn_tokens(prompt, ids or None, entries or None)


def _entries(logprobs: Any) -> list[dict[str, Any]] | None:
    """``logprobs.content`` as plain entries (litellm holds them as objects)."""
    content = getattr(logprobs, "content", None)
    if content is None and isinstance(logprobs, dict):
        content = logprobs.get("content")
    if not isinstance(content, list):
        return None
    return [
        entry
        if isinstance(entry, dict)
        else {
            "token": getattr(entry, "token", None),
            "logprob": getattr(entry, "logprob", None),
        }
        for entry in content
    ]
