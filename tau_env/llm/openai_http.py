"""The lean route: OpenAI's chat-completions API spoken directly over kept-alive connections.

For OpenAI itself and any OpenAI-compatible server (vLLM, SGLang, llama.cpp, a proxy...). A
call costs one request body built from the serialised prefix of the conversation
(`tau_env.llm.wire`), one POST on a kept-alive connection of the loop's shared pool
(`tau_env.llm.pool`, `tau_env.llm.http1`; through aiohttp when the environment names a proxy
for the endpoint), and a JSON parse of the reply (`tau_env.llm.replies`): a few tenths of a
millisecond of CPU, where litellm spends several. Streaming (``ModelConfig.stream``) reads the
server-sent events and asks for the usage chunk. Failures are classified as on every route
(`tau_env.llm.failures`).

Endpoint and key: ``api_base`` (else ``OPENAI_BASE_URL`` / ``OPENAI_API_BASE``, else
``https://api.openai.com/v1``); ``api_key`` (else ``OPENAI_API_KEY``). Only OpenAI's own
endpoint requires a key; a local server is called without one when none is set.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from tau_env.errors import ModelAccessError
from tau_env.llm.config import ModelConfig
from tau_env.llm.failures import Provider, ProviderFailure, failure_for_status, missing_key_message
from tau_env.llm.http1 import Endpoint, HttpError, HttpReply
from tau_env.llm.pool import EnvSettings, env_settings, loop_pool, shared_session
from tau_env.llm.prices import local_endpoint, price_of
from tau_env.llm.replies import StreamReader, completion_reply, error_detail
from tau_env.llm.response import LLMResponse
from tau_env.llm.wire import ChatCall, RequestWriter

if TYPE_CHECKING:
    import aiohttp

__all__ = ["OPENAI_BASE", "OpenAIRoute"]

OPENAI_BASE = "https://api.openai.com/v1"
"""OpenAI's own endpoint (the one that requires an API key)."""


def _base_url(config: ModelConfig) -> str:
    base = config.api_base or os.environ.get("OPENAI_BASE_URL") or os.environ.get("OPENAI_API_BASE")
    return (base or OPENAI_BASE).rstrip("/")


def _endpoint_url(base: str, path: str) -> str:
    """`base` with `path` appended to its path; a query string (``?api-version=...``) kept after."""
    parts = urlsplit(base)
    return urlunsplit(parts._replace(path=f"{parts.path.rstrip('/')}/{path}"))


class OpenAIRoute:
    """Sends one client's calls to an OpenAI-compatible endpoint.

    Args:
        config: The model; ``config.model`` may carry the ``openai/`` routing prefix, which
            is not sent.
    """

    name = "lean"

    def __init__(self, config: ModelConfig) -> None:
        self.config = config
        self.base = _base_url(config)
        self.url = _endpoint_url(self.base, "chat/completions")
        self.wire_model = config.model.removeprefix("openai/")
        self.official = self.base == OPENAI_BASE
        self.key = config.api_key or os.environ.get("OPENAI_API_KEY") or None
        where = "OpenAI" if self.official else f"the OpenAI-compatible server at {self.base}"
        self.provider = Provider(where, "OPENAI_API_KEY")
        self.price = None if local_endpoint(self.base) else price_of(self.wire_model)
        params = dict(config.params)
        extra_headers = params.pop("extra_headers", None) or {}
        extra_body = params.pop("extra_body", None) or {}
        self.headers = {"Content-Type": "application/json", **dict(extra_headers)}
        if self.key:
            self.headers["Authorization"] = f"Bearer {self.key}"
        organization = os.environ.get("OPENAI_ORGANIZATION")
        if self.official and organization:
            self.headers["OpenAI-Organization"] = organization
        self.writer = RequestWriter(
            model=self.wire_model,
            key_model=config.model,
            settings={"temperature": config.temperature, **params, **dict(extra_body)},
            params=config.params,
            temperature=config.temperature,
        )
        self._authorized = any(name.lower() == "authorization" for name in self.headers)
        self._timeout: aiohttp.ClientTimeout | None = None  # the proxied path's
        # the endpoint for the environment's settings; shared with `fresh` copies
        self._endpoint: list[tuple[EnvSettings, Endpoint]] = []

    def fresh(self) -> OpenAIRoute:
        """The same route for another conversation (its own request writer)."""
        route = object.__new__(type(self))  # a shallow copy, without copy.copy's protocol
        route.__dict__.update(self.__dict__)
        route.writer = self.writer.fresh()
        return route

    def check_access(self) -> None:
        """Raise `ModelAccessError` when the call cannot succeed: OpenAI without a key."""
        if self.official and not self.key:
            raise ModelAccessError(missing_key_message(self.provider, self.config.model))

    def prepare(
        self,
        messages: Sequence[Mapping[str, Any]],
        tools: Sequence[Mapping[str, Any]] | None,
        tool_choice: str | Mapping[str, Any] | None,
        seed: int | None,
        *,
        with_key: bool,
    ) -> ChatCall:
        """The request of one call (body built from the conversation's serialised prefix)."""
        return self.writer.call(
            messages, tools, tool_choice, seed, stream=self.config.stream, with_key=with_key
        )

    async def send(self, call: ChatCall) -> LLMResponse:
        """Make the call once.

        Raises:
            ProviderFailure: The call failed (classified).
        """
        settings = env_settings(self.url)  # proxies and .netrc, as httpx would read them
        if settings.proxy is not None:
            return await self._send_proxied(call, settings)
        endpoint = self._endpoint_for(settings)
        pool = await loop_pool()
        reply: HttpReply | None = None
        deadline = pool.deadlines.start(self.config.timeout)  # as `asyncio.timeout` would
        timed_out = False
        try:
            try:
                reply = await pool.connections.post(endpoint, call.body)
                if reply.status != 200:
                    detail = f"HTTP {reply.status}: {error_detail(await reply.read())}"
                    raise failure_for_status(reply.status, detail, reply.headers)
                if reply.content_type == "text/event-stream":
                    return await self._read_stream(reply.lines())
                raw = await reply.read()
            finally:
                timed_out = deadline.end()
        except asyncio.CancelledError:
            if timed_out:
                raise ProviderFailure("transient", self._timed_out) from None
            raise
        except TimeoutError:
            raise ProviderFailure("transient", self._timed_out) from None
        except HttpError as error:
            raise ProviderFailure("transient", f"{type(error).__name__}: {error}") from error
        finally:
            if reply is not None:
                reply.discard()  # a no-op once the reply was read whole
        return completion_reply(raw, self.config.model, self.price)

    def _endpoint_for(self, settings: EnvSettings) -> Endpoint:
        """The endpoint with this route's headers (and ``.netrc`` credentials when keyless)."""
        known = self._endpoint
        if known and known[0][0] is settings:
            return known[0][1]
        headers = dict(self.headers)
        if not self._authorized and settings.netrc_auth is not None:
            headers["Authorization"] = settings.netrc_auth.encode()
        try:
            endpoint = Endpoint.of(self.url, headers)
        except ValueError as error:
            raise ProviderFailure("permanent", f"{self.url}: {error}") from None
        self._endpoint[:] = [(settings, endpoint)]
        return endpoint

    async def _send_proxied(self, call: ChatCall, settings: EnvSettings) -> LLMResponse:
        """`send` through the environment's proxy (aiohttp speaks the proxy protocols)."""
        import aiohttp

        if self._timeout is None:
            self._timeout = aiohttp.ClientTimeout(total=self.config.timeout)
        session = await shared_session()
        auth = None if self._authorized else settings.netrc_auth
        try:
            async with session.post(
                self.url,
                data=call.body,
                headers=self.headers,
                timeout=self._timeout,
                proxy=settings.proxy,
                proxy_auth=settings.proxy_auth,
                auth=auth,
            ) as response:
                if response.status != 200:
                    body = await response.read()
                    detail = f"HTTP {response.status}: {error_detail(body)}"
                    raise failure_for_status(response.status, detail, dict(response.headers))
                if response.content_type == "text/event-stream":
                    return await self._read_stream(aiter(response.content))
                raw = await response.read()
        except TimeoutError:
            raise ProviderFailure("transient", self._timed_out) from None
        except aiohttp.ClientError as error:
            raise ProviderFailure("transient", f"{type(error).__name__}: {error}") from error
        return completion_reply(raw, self.config.model, self.price)

    @property
    def _timed_out(self) -> str:
        return f"no reply within {self.config.timeout} s (timeout)"

    async def _read_stream(self, lines: AsyncIterator[bytes]) -> LLMResponse:
        reader = StreamReader(self.config.model, self.price)
        async for line in lines:
            if reader.feed(line):
                return reader.reply()
        raise ProviderFailure("transient", "the stream ended before data: [DONE] (stream cut)")

    def describe(self) -> dict[str, Any]:
        """Where calls go (for debugging and reports; no key)."""
        return {"route": self.name, "url": self.url, "model": self.wire_model}
