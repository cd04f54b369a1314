"""A fake OpenAI-compatible chat-completions server on 127.0.0.1, for tests and benchmarks.

It speaks real HTTP, so everything between a participant and the wire (litellm, the OpenAI
SDK, retries, timeouts, the response cache) runs as in production. Replies are scripted: a
queue of `FakeReply` objects, or a function that sees each request and returns one. Faults are
replies too: an HTTP error status (429, 500...), a delay longer than the client's timeout,
malformed tool-call JSON, an empty reply, a body that is not JSON.

Example::

    from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply

    with FakeOpenAIServer([FakeReply.error(429), FakeReply.text("Hello")]) as server:
        client = LLMClient(server.config())  # model "openai/fake", api_base server.base_url
        reply = client.complete_sync([{"role": "user", "content": "Hi"}])
        assert reply.content == "Hello" and len(server.requests) == 2

It also answers ``/v1/embeddings`` with deterministic word-hash vectors (`fake_embedding`), so
dense retrieval runs end to end too; those requests are listed in ``embedding_requests``.

litellm reaches it with ``model="openai/<name>"``, ``api_base=server.base_url`` (which ends
in ``/v1``) and any non-empty API key.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tau_env.llm.config import ModelConfig

__all__ = [
    "EMBEDDING_DIMENSIONS",
    "FakeOpenAIServer",
    "FakeReply",
    "FakeRequest",
    "FakeToolCall",
    "fake_embedding",
]


@dataclass(frozen=True)
class FakeToolCall:
    """A tool call in a scripted reply.

    Attributes:
        name: Function name.
        arguments: The arguments exactly as sent on the wire (JSON text, possibly malformed).
        id: Call id (default: generated from the request number).
    """

    name: str
    arguments: str = "{}"
    id: str | None = None


@dataclass(frozen=True)
class FakeReply:
    """One scripted answer of the server.

    Attributes:
        content: The assistant text (None: no text).
        tool_calls: Tool calls of the reply.
        status: HTTP status; anything but 200 sends an OpenAI-style error body.
        delay: Seconds to wait before answering (simulates slowness or a timeout).
        raw_body: Sent verbatim instead of a JSON completion (a broken provider).
        prompt_tokens: Reported usage (default: about one token per 4 characters of input).
        completion_tokens: Reported usage (default: about one token per 4 characters of output).
    """

    content: str | None = None
    tool_calls: tuple[FakeToolCall, ...] = ()
    status: int = 200
    delay: float = 0.0
    raw_body: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None

    @classmethod
    def text(cls, content: str) -> FakeReply:
        """A plain text reply."""
        return cls(content=content)

    @classmethod
    def tool_call(
        cls, name: str, arguments: dict[str, Any] | str | None = None, *, id: str | None = None
    ) -> FakeReply:
        """A reply with one tool call; `arguments` as a dict is sent as JSON, a str verbatim."""
        text = arguments if isinstance(arguments, str) else json.dumps(arguments or {})
        return cls(tool_calls=(FakeToolCall(name, text, id),))

    @classmethod
    def tool_calls_of(cls, *calls: tuple[str, dict[str, Any]]) -> FakeReply:
        """A reply with several tool calls, given as ``(name, arguments)`` pairs."""
        return cls(tool_calls=tuple(FakeToolCall(n, json.dumps(a)) for n, a in calls))

    @classmethod
    def malformed_tool_call(cls, name: str, raw_arguments: str = '{"unclosed": ') -> FakeReply:
        """A tool call whose arguments are not valid JSON."""
        return cls(tool_calls=(FakeToolCall(name, raw_arguments),))

    @classmethod
    def empty(cls) -> FakeReply:
        """A reply with neither text nor tool calls."""
        return cls(content="")

    @classmethod
    def error(cls, status: int, message: str = "") -> FakeReply:
        """An HTTP error (429 rate limit, 500 server error, 400 bad request...)."""
        return cls(status=status, content=message or f"fake error {status}")

    @classmethod
    def timeout(cls, seconds: float, then: FakeReply | None = None) -> FakeReply:
        """Wait `seconds` before answering (set the client's timeout below it)."""
        base = then or cls(content="(answered too late)")
        return FakeReply(
            content=base.content,
            tool_calls=base.tool_calls,
            status=base.status,
            delay=seconds,
            raw_body=base.raw_body,
        )


@dataclass(frozen=True)
class FakeRequest:
    """A request the server received.

    Attributes:
        path: The URL path.
        body: The parsed JSON body (model, messages, tools, temperature, seed...).
        number: 1 for the first request the server received, then 2, 3...
        headers: The HTTP headers, names in lower case (``authorization`` carries the API key
            the client sent).
    """

    path: str
    body: dict[str, Any]
    number: int
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The chat messages sent."""
        return list(self.body.get("messages") or [])

    @property
    def tool_names(self) -> list[str]:
        """Names of the tools offered."""
        return [t["function"]["name"] for t in self.body.get("tools") or []]

    @property
    def last_message(self) -> dict[str, Any]:
        """The last chat message (what the model answers)."""
        return self.messages[-1] if self.messages else {}


Script = Callable[[FakeRequest], FakeReply]


@dataclass
class _State:
    script: Script | None
    queue: deque[FakeReply]
    latency: float
    requests: list[FakeRequest] = field(default_factory=list)
    embedding_requests: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class _Server(ThreadingHTTPServer):
    # The default listen backlog (5) resets connections when dozens of clients connect at once.
    request_queue_size = 256
    daemon_threads = True


class FakeOpenAIServer:
    """An OpenAI-compatible ``/v1/chat/completions`` endpoint served from a thread.

    Args:
        replies: A queue of replies, one per request, or a function that builds the reply from
            the request. With a queue, a request arriving when it is empty gets a 400 error
            saying so (a test that under-scripted the model fails loudly).
        latency: Seconds added to every reply.
    """

    def __init__(
        self,
        replies: Iterable[FakeReply] | Script | None = None,
        *,
        latency: float = 0.0,
    ) -> None:
        if latency < 0:
            raise ValueError(f"latency must be >= 0, actually: {latency}")
        script = replies if callable(replies) else None
        queue = deque() if callable(replies) or replies is None else deque(replies)
        self._state = _State(script=script, queue=queue, latency=latency)
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -----------------------------------------------------------------------------
    def start(self) -> FakeOpenAIServer:
        """Bind a free port on 127.0.0.1 and serve in a daemon thread."""
        if self._server is not None:
            return self
        handler = _handler_for(self._state)
        server = _Server(("127.0.0.1", 0), handler)
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving and release the port."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

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
        if self._server is None:
            raise RuntimeError("the fake server is not started")
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/v1``: the ``api_base`` to give litellm."""
        return f"http://127.0.0.1:{self.port}/v1"

    def model(self, name: str = "fake") -> str:
        """The litellm model string that reaches this server: ``openai/<name>``."""
        return f"openai/{name}"

    def config(self, name: str = "fake", **settings: Any) -> ModelConfig:
        """A `ModelConfig` pointing at this server (extra settings go to `ModelConfig`)."""
        return ModelConfig(
            model=self.model(name), api_base=self.base_url, api_key="sk-fake", **settings
        )


def _handler_for(state: _State) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body go out at once: no 40 ms stalls

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            return

        def do_GET(self) -> None:
            if self.path.rstrip("/").endswith("/models"):
                self._send(200, {"object": "list", "data": [{"id": "fake", "object": "model"}]})
            else:
                self._send(404, _error_body(404, f"no route {self.path}"))

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            if self.path.rstrip("/").endswith("/embeddings"):
                self._embeddings(raw)
                return
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send(404, _error_body(404, f"no route {self.path}"))
                return
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                self._send(400, _error_body(400, "request body is not JSON"))
                return
            with state.lock:
                number = len(state.requests) + 1
                headers = {name.lower(): value for name, value in self.headers.items()}
                request = FakeRequest(self.path, body, number, headers)
                state.requests.append(request)
                reply = None if state.script is not None else _pop(state.queue)
            if state.script is not None:
                reply = state.script(request)
            if reply is None:
                self._send(400, _error_body(400, "fake server: no scripted reply left"))
                return
            if state.latency or reply.delay:
                time.sleep(state.latency + reply.delay)
            if reply.raw_body is not None:
                self._send_raw(reply.status, reply.raw_body.encode())
            elif reply.status != 200:
                self._send(reply.status, _error_body(reply.status, reply.content or ""))
            else:
                self._send(200, _completion(request, reply))

        def _embeddings(self, raw: bytes) -> None:
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                self._send(400, _error_body(400, "request body is not JSON"))
                return
            with state.lock:
                state.embedding_requests.append(body)
            self._send(200, _embedding_reply(body))

        def _send(self, status: int, payload: dict[str, Any]) -> None:
            self._send_raw(status, json.dumps(payload).encode())

        def _send_raw(self, status: int, data: bytes) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                if status == 429:
                    self.send_header("Retry-After", "0")
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout)
                pass

    return Handler


def _pop(queue: deque[FakeReply]) -> FakeReply | None:
    return queue.popleft() if queue else None


def _error_body(status: int, message: str) -> dict[str, Any]:
    kinds = {429: "rate_limit_exceeded", 400: "invalid_request_error", 404: "not_found"}
    return {"error": {"message": message, "type": kinds.get(status, "server_error"), "code": None}}


def _completion(request: FakeRequest, reply: FakeReply) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.content}
    if reply.tool_calls:
        message["tool_calls"] = [
            {
                "id": call.id or f"call_{request.number}_{i}",
                "type": "function",
                "function": {"name": call.name, "arguments": call.arguments},
            }
            for i, call in enumerate(reply.tool_calls)
        ]
    prompt = reply.prompt_tokens
    if prompt is None:
        prompt = max(1, len(json.dumps(request.messages)) // 4)
    completion = reply.completion_tokens
    if completion is None:
        out = (reply.content or "") + "".join(c.arguments for c in reply.tool_calls)
        completion = max(1, len(out) // 4)
    return {
        "id": f"chatcmpl-fake-{request.number}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": str(request.body.get("model", "fake")),
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if reply.tool_calls else "stop",
            }
        ],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        },
    }


EMBEDDING_DIMENSIONS = 64
"""Length of the fake server's embedding vectors."""


def fake_embedding(text: str) -> list[float]:
    """A deterministic vector for `text`: word counts hashed into `EMBEDDING_DIMENSIONS` slots.

    Texts that share words point in similar directions, so dense retrieval over these vectors
    ranks overlapping documents first, which is enough to test it end to end.
    """
    vector = [0.0] * EMBEDDING_DIMENSIONS
    for word in text.lower().split():
        digest = hashlib.sha256(word.encode()).digest()
        vector[digest[0] % EMBEDDING_DIMENSIONS] += 1.0 if digest[1] % 2 else -1.0
    return vector


def _embedding_reply(body: dict[str, Any]) -> dict[str, Any]:
    """An OpenAI ``/v1/embeddings`` response for a request body (``input`` text or list)."""
    inputs = body.get("input") or []
    texts = [inputs] if isinstance(inputs, str) else [str(text) for text in inputs]
    tokens = sum(len(text.split()) for text in texts)
    return {
        "object": "list",
        "data": [
            {"object": "embedding", "index": i, "embedding": fake_embedding(text)}
            for i, text in enumerate(texts)
        ],
        "model": str(body.get("model", "fake")),
        "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
    }
