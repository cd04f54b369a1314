"""A small HTTP/1.1 server on asyncio, serving one handler from a background thread.

Enough HTTP for the fake model servers of tests and benchmarks: keep-alive connections,
``Content-Length`` request bodies, plain or chunked (streamed) responses, and the faults a real
network has (a reply cut off mid-body). Every connection is a coroutine on one event loop, so
hundreds of concurrent clients cost little CPU: the fake server must stay cheaper than the
client being measured against it.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from http import HTTPStatus

__all__ = ["Handler", "HttpRequest", "HttpResponse", "HttpServer"]


@dataclass(frozen=True)
class HttpRequest:
    """A request as received.

    Attributes:
        method: ``GET``, ``POST``...
        path: The request target (path and query).
        headers: Header values by lower-case name.
        body: The request body.
    """

    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass(frozen=True)
class HttpResponse:
    """A response to send.

    Attributes:
        status: HTTP status code.
        body: The body of a plain response.
        content_type: Its media type.
        headers: Further headers.
        chunks: When given, the body is sent in these chunks (chunked transfer encoding),
            each written as soon as it is produced.
        cut_after: Drop the connection mid-reply: after this many chunks, or after half of a
            plain body (None: never).
    """

    status: int
    body: bytes = b""
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)
    chunks: Iterable[bytes] | None = None
    cut_after: int | None = None


Handler = Callable[[HttpRequest], Awaitable[HttpResponse]]
"""Answers one request (runs on the server's event loop)."""


_REASONS = {status.value: status.phrase for status in HTTPStatus}
"""Reason phrases by status code (an unknown code's phrase is "Unknown")."""


def _head(response: HttpResponse, length: int | None) -> bytes:
    status = response.status
    reason = _REASONS.get(status, "Unknown")
    lines = [f"HTTP/1.1 {status} {reason}", f"Content-Type: {response.content_type}"]
    if length is None:
        lines.append("Transfer-Encoding: chunked")
    else:
        lines.append(f"Content-Length: {length}")
    lines += [f"{name}: {value}" for name, value in response.headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


class HttpServer:
    """Serves `handler` on ``host:port`` (port 0: a free one) from a daemon thread.

    Args:
        handler: Answers each request.
        host: Interface to bind.
        port: Port to bind (0: any free port).
    """

    def __init__(self, handler: Handler, host: str = "127.0.0.1", port: int = 0) -> None:
        self.handler = handler
        self.host = host
        self.port = port
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: asyncio.Server | None = None
        self._connections: dict[asyncio.Task[None], asyncio.StreamWriter] = {}
        self.accepted = 0
        """TCP connections accepted so far (kept-alive connections count once)."""

    @property
    def running(self) -> bool:
        """True between `start` and `close`."""
        return self._server is not None

    def start(self) -> None:
        """Bind and serve (returns once the port is bound; raises OSError if it cannot be)."""
        if self._server is not None:
            return
        loop = asyncio.new_event_loop()
        server = loop.run_until_complete(
            asyncio.start_server(self._serve, self.host, self.port, backlog=1024)
        )
        self.port = int(server.sockets[0].getsockname()[1])
        self._loop, self._server = loop, server
        self._thread = threading.Thread(target=loop.run_forever, name="fake-http", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop serving, drop open connections and release the port."""
        loop, server, thread = self._loop, self._server, self._thread
        if loop is None or server is None or thread is None:
            return
        self._server = None

        async def shut() -> None:
            server.close()
            for writer in self._connections.values():
                writer.close()  # the connection's reader sees the end: its coroutine returns
            if self._connections:
                await asyncio.wait(list(self._connections), timeout=5)
            await server.wait_closed()

        asyncio.run_coroutine_threadsafe(shut(), loop).result(timeout=10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)
        loop.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.accepted += 1
        task = asyncio.current_task()
        if task is not None:
            self._connections[task] = writer
        try:
            while True:
                request = await self._read(reader)
                if request is None:
                    break
                response = await self.handler(request)
                kept = await self._write(writer, response)
                if not kept or request.headers.get("connection", "").lower() == "close":
                    break
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            pass  # the client went away, or sent something that is not HTTP
        finally:
            if task is not None:
                self._connections.pop(task, None)
            writer.close()

    @staticmethod
    async def _read(reader: asyncio.StreamReader) -> HttpRequest | None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError:
            return None  # closed between requests
        lines = head.decode("latin-1").split("\r\n")
        method, path, _ = [*lines[0].split(" ", 2), "", ""][:3]
        headers: dict[str, str] = {}
        for line in lines[1:]:
            name, colon, value = line.partition(":")
            if colon:
                headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length") or 0)
        body = await reader.readexactly(length) if length else b""
        return HttpRequest(method, path, headers, body)

    @staticmethod
    async def _write(writer: asyncio.StreamWriter, response: HttpResponse) -> bool:
        """Send a response; False when the connection must close after it."""
        if writer.is_closing():
            return False  # the client gave up (a timeout)
        cut = response.cut_after
        if response.chunks is None:  # head and body in one write: one segment, as servers do
            body = response.body
            head = _head(response, len(body))
            if cut is not None:  # announce the whole body, send half, hang up
                writer.write(head + body[: len(body) // 2])
                await writer.drain()
                return False
            writer.write(head + body)
            await writer.drain()
            return True
        writer.write(_head(response, None))
        for sent, chunk in enumerate(response.chunks):
            if cut is not None and sent >= cut:
                await writer.drain()
                return False  # no terminating chunk: a cut stream
            writer.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            await writer.drain()
            if writer.is_closing():
                return False
        writer.write(b"0\r\n\r\n")
        await writer.drain()
        return True
