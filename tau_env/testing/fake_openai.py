"""A fake OpenAI-compatible chat-completions server on 127.0.0.1, for tests and benchmarks.

It speaks real HTTP, so everything between a participant and the wire (litellm, the OpenAI
SDK, retries, timeouts, the response cache) runs as in production. Replies are scripted: a
queue of `FakeReply` objects, or a function that sees each request and returns one. Faults are
replies too: an HTTP error status (429, 500...), a delay longer than the client's timeout,
malformed tool-call JSON, an empty reply, a body that is not JSON, a connection dropped in
the middle of the reply (a stream cut).

A request with ``"stream": true`` is answered as OpenAI streams: server-sent events
(``data: {chunk}`` lines, chunked transfer encoding), text and tool-call arguments in deltas,
the finish reason in the last choice chunk, a usage chunk (empty ``choices``) when
``stream_options.include_usage`` is set, then ``data: [DONE]``. Errors are sent as plain JSON
error bodies with their status, as before the stream starts.

Example::

    from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply

    with FakeOpenAIServer([FakeReply.error(429), FakeReply.text("Hello")]) as server:
        client = LLMClient(server.config())  # model "openai/fake", api_base server.base_url
        reply = client.complete_sync([{"role": "user", "content": "Hi"}])
        assert reply.content == "Hello" and len(server.requests) == 2

Clients reach it with ``model="openai/<name>"`` and ``api_base=server.base_url`` (which
ends in ``/v1``); it ignores API keys. Requests are served by coroutines on one event loop in
a background thread (`tau_env.testing.http_server`), so hundreds of concurrent clients cost
it little CPU; scripts run on that loop, so keep them quick (simulate slowness with
``FakeReply.delay`` or ``latency``, never by sleeping in a script).

It also answers ``/v1/embeddings`` with deterministic word-hash vectors
(`tau_env.testing.fake_embeddings`), so dense retrieval runs end to end too; those requests
are listed in ``embedding_requests``.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tau_env.llm.config import ModelConfig
from tau_env.testing.fake_completions import completion_body, error_body, stream_events
from tau_env.testing.fake_embeddings import EMBEDDING_DIMENSIONS, embedding_body, fake_embedding
from tau_env.testing.fake_replies import FakeReply, FakeRequest, FakeToolCall, Script
from tau_env.testing.http_server import HttpRequest, HttpResponse, HttpServer
from tau_env.testing.sleeps import Sleeps

__all__ = [
    "EMBEDDING_DIMENSIONS",
    "FakeOpenAIServer",
    "FakeReply",
    "FakeRequest",
    "FakeToolCall",
    "fake_embedding",
]


@dataclass
class _State:
    script: Script | None
    queue: deque[FakeReply]
    latency: float
    keep: bool = True
    count: int = 0
    requests: list[FakeRequest] = field(default_factory=list)
    embedding_requests: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class FakeOpenAIServer:
    """An OpenAI-compatible ``/v1/chat/completions`` endpoint served from a thread.

    Args:
        replies: A queue of replies, one per request, or a function that builds the reply from
            the request. With a queue, a request arriving when it is empty gets a 400 error
            saying so (a test that under-scripted the model fails loudly).
        latency: Seconds added to every reply.
        port: The port to bind (0, the default: any free port).
        keep_requests: Keep every request for `requests` (default). Long benchmarks turn it
            off: thousands of retained request bodies make Python's garbage collector the
            server's main cost. `request_count` counts them either way.
    """

    def __init__(
        self,
        replies: Iterable[FakeReply] | Script | None = None,
        *,
        latency: float = 0.0,
        port: int = 0,
        keep_requests: bool = True,
    ) -> None:
        if latency < 0:
            raise ValueError(f"latency must be >= 0, actually: {latency}")
        script = replies if callable(replies) else None
        queue = deque() if callable(replies) or replies is None else deque(replies)
        self._state = _State(script=script, queue=queue, latency=latency, keep=keep_requests)
        self._http = HttpServer(self._answer, port=port)
        self._sleeps: Sleeps | None = None  # of the serving loop

    # -- lifecycle -----------------------------------------------------------------------------
    def start(self) -> FakeOpenAIServer:
        """Bind the port on 127.0.0.1 and serve from a daemon thread."""
        self._http.start()
        return self

    def close(self) -> None:
        """Stop serving and release the port."""
        self._http.close()

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- scripting -----------------------------------------------------------------------------
    def push(self, *replies: FakeReply) -> None:
        """Queue more replies."""
        with self._state.lock:
            self._state.queue.extend(replies)

    @property
    def requests(self) -> list[FakeRequest]:
        """Every request received so far, in arrival order."""
        with self._state.lock:
            return list(self._state.requests)

    @property
    def request_count(self) -> int:
        """Requests received so far (kept or not)."""
        with self._state.lock:
            return self._state.count

    @property
    def connections(self) -> int:
        """TCP connections accepted so far: a pooling client opens few and keeps them alive."""
        return self._http.accepted

    @property
    def embedding_requests(self) -> list[dict[str, Any]]:
        """Bodies of every ``/v1/embeddings`` request, in arrival order (kept apart from chat)."""
        with self._state.lock:
            return list(self._state.embedding_requests)

    @property
    def pending(self) -> int:
        """Queued replies not yet sent."""
        with self._state.lock:
            return len(self._state.queue)

    # -- addresses -----------------------------------------------------------------------------
    @property
    def port(self) -> int:
        """The bound port."""
        if not self._http.running:
            raise RuntimeError("the fake server is not started")
        return self._http.port

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/v1``: the ``api_base`` to give clients."""
        return f"http://127.0.0.1:{self.port}/v1"

    def model(self, name: str = "fake") -> str:
        """The model string that reaches this server: ``openai/<name>``."""
        return f"openai/{name}"

    def config(self, name: str = "fake", **settings: Any) -> ModelConfig:
        """A `ModelConfig` pointing at this server (extra settings go to `ModelConfig`)."""
        return ModelConfig(
            model=self.model(name), api_base=self.base_url, api_key="sk-fake", **settings
        )

    # -- serving -------------------------------------------------------------------------------
    async def _answer(self, http: HttpRequest) -> HttpResponse:
        """Route one HTTP request (runs on the server's event loop)."""
        path = http.path.split("?", 1)[0].rstrip("/")
        if http.method == "GET" and path.endswith("/models"):
            return _json(200, {"object": "list", "data": [{"id": "fake", "object": "model"}]})
        if http.method == "POST" and path.endswith("/chat/completions"):
            return await self._chat(http)
        if http.method == "POST" and path.endswith("/embeddings"):
            return await self._embeddings(http)
        return _json(404, error_body(404, f"no route {http.method} {http.path}"))

    async def _chat(self, http: HttpRequest) -> HttpResponse:
        try:
            body = json.loads(http.body or b"{}")
        except ValueError:
            return _json(400, error_body(400, "request body is not JSON"))
        state = self._state
        with state.lock:
            state.count += 1
            request = FakeRequest(http.path, body, state.count, http.headers, len(http.body))
            if state.keep:
                state.requests.append(request)
            reply = None if state.script is not None else _pop(state.queue)
        if state.script is not None:
            reply = state.script(request)
        if reply is None:
            return _json(400, error_body(400, "fake server: no scripted reply left"))
        if state.latency or reply.delay:
            await self._sleep(state.latency + reply.delay)
        headers = {}
        if reply.retry_after is not None or reply.status == 429:
            headers["Retry-After"] = f"{reply.retry_after or 0:g}"
        if reply.raw_body is not None:
            raw = reply.raw_body.encode()
            return HttpResponse(reply.status, raw, headers=headers, cut_after=reply.cut_after)
        if reply.status != 200:
            return _json(reply.status, error_body(reply.status, reply.content or ""), headers)
        if request.stream:
            events = (f"data: {event}\n\n".encode() for event in stream_events(request, reply))
            return HttpResponse(
                200,
                content_type="text/event-stream",
                headers={"Cache-Control": "no-cache"},
                chunks=events,
                cut_after=reply.cut_after,
            )
        return _json(200, completion_body(request, reply), cut_after=reply.cut_after)

    async def _sleep(self, seconds: float) -> None:
        """Hold a reply (one loop timer for all the replies held, see `Sleeps`)."""
        loop = asyncio.get_running_loop()
        sleeps = self._sleeps
        if sleeps is None or sleeps.loop is not loop:
            sleeps = self._sleeps = Sleeps(loop)
        await sleeps.sleep(seconds)

    async def _embeddings(self, http: HttpRequest) -> HttpResponse:
        try:
            body = json.loads(http.body or b"{}")
        except ValueError:
            return _json(400, error_body(400, "request body is not JSON"))
        with self._state.lock:
            self._state.embedding_requests.append(body)
        return _json(200, embedding_body(body))


def _json(
    status: int,
    payload: dict[str, Any],
    headers: dict[str, str] | None = None,
    *,
    cut_after: int | None = None,
) -> HttpResponse:
    return HttpResponse(
        status, json.dumps(payload).encode(), headers=headers or {}, cut_after=cut_after
    )


def _pop(queue: deque[FakeReply]) -> FakeReply | None:
    return queue.popleft() if queue else None
