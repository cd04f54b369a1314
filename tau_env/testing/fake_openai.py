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

litellm reaches it with ``model="openai/<name>"``, ``api_base=server.base_url`` (which ends
in ``/v1``) and any non-empty API key.
"""

from __future__ import annotations

import dataclasses
import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tau_env.llm.config import ModelConfig

__all__ = ["FakeOpenAIServer", "FakeReply", "FakeRequest", "FakeToolCall"]


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
        cut_after: Drop the connection in the middle of the reply: after this many
            server-sent events of a stream, or after half of a plain JSON body (None: never).
    """

    content: str | None = None
    tool_calls: tuple[FakeToolCall, ...] = ()
    status: int = 200
    delay: float = 0.0
    raw_body: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cut_after: int | None = None

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
        return dataclasses.replace(base, delay=seconds)

    @classmethod
    def stream_cut(cls, after: int = 1, then: FakeReply | None = None) -> FakeReply:
        """Drop the connection mid-reply (the "stream cut" fault).

        A stream is cut after `after` events; a plain JSON reply after half its body. `then`
        is the reply that gets cut (default: a text).
        """
        if after < 0:
            raise ValueError(f"after must be >= 0 events, actually: {after}")
        base = then or cls(content="This reply never arrives whole.")
        return dataclasses.replace(base, cut_after=after)


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

    @property
    def stream(self) -> bool:
        """True when the client asked for a stream of server-sent events."""
        return bool(self.body.get("stream"))

    @property
    def include_usage(self) -> bool:
        """True when a streaming client asked for the final usage chunk."""
        options = self.body.get("stream_options")
        return isinstance(options, dict) and bool(options.get("include_usage"))


Script = Callable[[FakeRequest], FakeReply]


@dataclass
class _State:
    script: Script | None
    queue: deque[FakeReply]
    latency: float
    requests: list[FakeRequest] = field(default_factory=list)
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
                self._send_raw(reply.status, reply.raw_body.encode(), reply.cut_after)
            elif reply.status != 200:
                self._send(reply.status, _error_body(reply.status, reply.content or ""))
            elif request.stream:
                self._stream(_events(request, reply), reply.cut_after)
            else:
                self._send(200, _completion(request, reply), reply.cut_after)

        def _send(self, status: int, payload: dict[str, Any], cut: int | None = None) -> None:
            self._send_raw(status, json.dumps(payload).encode(), cut)

        def _send_raw(self, status: int, data: bytes, cut: int | None = None) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                if status == 429:
                    self.send_header("Retry-After", "0")
                self.end_headers()
                if cut is not None:  # announce the whole body, send half, hang up
                    self.wfile.write(data[: len(data) // 2])
                    self.close_connection = True
                    return
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout)
                pass

        def _stream(self, events: Iterator[str], cut: int | None) -> None:
            """Send server-sent events in HTTP chunks; hang up after `cut` events."""
            try:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                for sent, event in enumerate(events):
                    if cut is not None and sent >= cut:
                        self.close_connection = True  # no terminating chunk: a cut stream
                        return
                    data = f"data: {event}\n\n".encode()
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                    self.wfile.flush()
                self.wfile.write(b"0\r\n\r\n")
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
                "id": _call_id(request, call, i),
                "type": "function",
                "function": {"name": call.name, "arguments": call.arguments},
            }
            for i, call in enumerate(reply.tool_calls)
        ]
    return {
        "id": f"chatcmpl-fake-{request.number}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": str(request.body.get("model", "fake")),
        "choices": [{"index": 0, "message": message, "finish_reason": _finish_reason(reply)}],
        "usage": _usage(request, reply),
    }


def _call_id(request: FakeRequest, call: FakeToolCall, index: int) -> str:
    return call.id or f"call_{request.number}_{index}"


def _finish_reason(reply: FakeReply) -> str:
    return "tool_calls" if reply.tool_calls else "stop"


def _usage(request: FakeRequest, reply: FakeReply) -> dict[str, int]:
    prompt = reply.prompt_tokens
    if prompt is None:
        prompt = max(1, len(json.dumps(request.messages)) // 4)
    completion = reply.completion_tokens
    if completion is None:
        out = (reply.content or "") + "".join(c.arguments for c in reply.tool_calls)
        completion = max(1, len(out) // 4)
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }


_WORDS = re.compile(r"\s*\S+|\s+$")
ARGUMENT_PIECE = 16
"""Characters of tool-call arguments per streamed delta."""


def _events(request: FakeRequest, reply: FakeReply) -> Iterator[str]:
    """The server-sent events of a streamed reply (JSON chunks, then ``[DONE]``).

    Text arrives word by word, each tool call as a first delta with its id and name and then
    its arguments in `ARGUMENT_PIECE`-character deltas; joined, the deltas are the reply.
    """
    usage = request.include_usage
    head = {
        "id": f"chatcmpl-fake-{request.number}",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": str(request.body.get("model", "fake")),
    }

    def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
        body = {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
        if usage:
            body["usage"] = None  # as OpenAI: null on every chunk but the last
        return json.dumps(body)

    text = reply.content
    yield chunk({"role": "assistant", "content": "" if text is not None else None})
    for piece in _WORDS.findall(text or ""):
        yield chunk({"content": piece})
    for index, call in enumerate(reply.tool_calls):
        opening = {
            "index": index,
            "id": _call_id(request, call, index),
            "type": "function",
            "function": {"name": call.name, "arguments": ""},
        }
        yield chunk({"tool_calls": [opening]})
        arguments = call.arguments
        for start in range(0, len(arguments), ARGUMENT_PIECE):
            piece = arguments[start : start + ARGUMENT_PIECE]
            yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    yield chunk({}, _finish_reason(reply))
    if usage:
        yield json.dumps({**head, "choices": [], "usage": _usage(request, reply)})
    yield "[DONE]"
