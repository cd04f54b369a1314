"""The lean route: OpenAI's chat-completions API spoken directly over kept-alive connections.

For OpenAI itself and any OpenAI-compatible server (vLLM, SGLang, llama.cpp, a proxy...). A
call costs one request body built from the serialised prefix of the conversation
(`tau_env.llm.wire`), one POST through the loop's shared aiohttp session (kept-alive
connections; the environment's proxy when it names one: `tau_env.llm.pool`), and a JSON parse
of the reply (`tau_env.llm.replies`): a fraction of a millisecond of CPU, where litellm spends
several. Streaming (``ModelConfig.stream``) reads the
server-sent events and asks for the usage chunk. Failures are classified as on every route
(`tau_env.llm.failures`).

Endpoint and key: ``api_base`` (else ``OPENAI_BASE_URL`` / ``OPENAI_API_BASE``, else
``https://api.openai.com/v1``); ``api_key`` (else ``OPENAI_API_KEY``). Only OpenAI's own
endpoint requires a key; a local server is called without one when none is set.
"""

from __future__ import annotations

import copy
import os
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from tau_env.errors import ModelAccessError
from tau_env.llm.config import ModelConfig
from tau_env.llm.failures import Provider, ProviderFailure, failure_for_status, missing_key_message
from tau_env.llm.pool import env_settings, shared_session
from tau_env.llm.prices import local_endpoint, price_of
from tau_env.llm.replies import StreamReader, completion_reply, error_detail
from tau_env.llm.response import LLMResponse
from tau_env.llm.wire import ChatCall, ChatRequest, RequestWriter
from tau_env.utils.extras import require_extra

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
        self._timeout: aiohttp.ClientTimeout | None = None  # made on the first call

    def fresh(self) -> OpenAIRoute:
        """The same route for another conversation (its own request writer)."""
        route = copy.copy(self)
        route.writer = self.writer.fresh()
        return route

    def check_access(self) -> None:
        """Raise `ModelAccessError` when the call cannot succeed.

        OpenAI without a key; or an endpoint whose URL carries ``user:password@`` (HTTP Basic
        authentication) while a key is set (a Bearer token): a request has one Authorization
        header, and no choice between the two would be right.

        Raises:
            MissingExtra: aiohttp, which makes the calls, is not installed.
        """
        require_extra("llm", "aiohttp", feature=f"a model call to {self.base}")
        if self.official and not self.key:
            raise ModelAccessError(missing_key_message(self.provider, self.config.model))
        if self.key and urlsplit(self.url).username is not None:
            raise ModelAccessError(
                f"{self.provider.name}: its URL carries a user and password and a key is set "
                f"({'api_key' if self.config.api_key else 'OPENAI_API_KEY'}); a request can "
                "carry only one of them: remove the password from the URL or unset the key"
            )

    def prepare(self, request: ChatRequest, *, with_key: bool) -> ChatCall:
        """The call for one request, its body as this endpoint takes it."""
        return self.writer.call(request, stream=self.config.stream, with_key=with_key)

    async def send(self, call: ChatCall) -> LLMResponse:
        """Make the call once, on the loop's shared aiohttp session.

        Raises:
            ProviderFailure: The call failed (classified).
        """
        import aiohttp

        if self._timeout is None:
            self._timeout = aiohttp.ClientTimeout(total=self.config.timeout)
        settings = env_settings(self.url)  # proxies and .netrc, as httpx would read them
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
        except aiohttp.InvalidURL as error:  # no host, or a scheme other than http(s)
            raise ProviderFailure("permanent", f"{self.url}: {error}") from None
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
