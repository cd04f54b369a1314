"""A small HTTP/1.1 client for the lean route: kept-alive connections, one exchange at a time each.

The lean route makes one kind of request, a JSON POST, at rates where the client's own CPU per
call decides how close a run gets to the model server's speed. A general client (aiohttp) spends
about 0.2 ms of Python per request on machinery this needs none of (cookies, redirects, tracing,
multidict headers, per-request timer and task objects); this one writes the request head and
body in one ``write`` and parses the reply off a byte buffer, about a quarter of that.

It speaks HTTP/1.1 over TCP, with TLS for ``https`` endpoints (the default certificate store).
Replies may be framed by ``Content-Length``, chunked, or end with the connection; a
``gzip``/``deflate`` body is decoded. Connections are kept alive per event loop and endpoint
(`ConnectionPool`); one whose server closed it while idle is replaced transparently when no
byte of a reply came back on it. A connection is never reused after a failed or abandoned
exchange. Proxies are not spoken here: the lean route sends proxied endpoints through aiohttp.

Every failure below HTTP (refused, reset, closed early, not HTTP) is an `HttpError`.
"""

from __future__ import annotations

import asyncio
import ssl
import zlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from tau_env.utils.environ import environ_cached

__all__ = ["ConnectionPool", "Endpoint", "HttpError", "HttpReply"]

_MAX_HEAD = 65536
_KEEP_IDLE = 30.0  # seconds an idle connection is kept (servers close theirs after 5 s or more)


class HttpError(Exception):
    """The exchange failed below HTTP: no connection, or the connection broke or spoke nonsense."""


@dataclass(frozen=True)
class Endpoint:
    """Where requests go, and the fixed part of their head.

    Attributes:
        host: Host name or address.
        port: TCP port.
        tls: Wrap the connection in TLS (``https``).
        path: The request target.
        head: The request line and fixed header lines, up to the body's length.
    """

    host: str
    port: int
    tls: bool
    path: str
    head: bytes
    key: tuple[str, int, bool] = field(init=False, repr=False, compare=False)
    """(host, port, tls): which kept-alive connections serve it."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", (self.host, self.port, self.tls))

    @classmethod
    def of(cls, url: str, headers: dict[str, str]) -> Endpoint:
        """The endpoint of `url`, sending `headers` with every request.

        Raises:
            ValueError: The URL is not ``http``/``https`` with a host, or a header would
                break the request (a line break in a name or value).
        """
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http(s) URL with a host: {url!r}")
        tls = parts.scheme == "https"
        port = parts.port or (443 if tls else 80)
        host = parts.hostname
        shown = f"[{host}]" if ":" in host else host
        authority = shown if port == (443 if tls else 80) else f"{shown}:{port}"
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        lines = [f"POST {path} HTTP/1.1", f"Host: {authority}"]
        for name, value in headers.items():
            if any(c in f"{name}{value}" for c in "\r\n\0") or not name or ":" in name:
                raise ValueError(f"header {name!r} cannot be sent: a line break or bad name")
            lines.append(f"{name}: {value}")
        head = ("\r\n".join(lines) + "\r\nContent-Length: ").encode("latin-1")
        return cls(host, port, tls, path, head)


@environ_cached
def _tls_context() -> ssl.SSLContext:
    """The default certificate store (``SSL_CERT_FILE``/``SSL_CERT_DIR`` honoured when set)."""
    return ssl.create_default_context()


class _Connection(asyncio.Protocol):
    """One TCP (or TLS) connection: bytes received are kept in a buffer until read."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.transport: asyncio.Transport | None = None
        self.lost = False
        self.received = 0  # bytes received, all exchanges included
        self.idle_since = 0.0
        self._waiter: asyncio.Future[None] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        self.received += len(data)
        self._wake()

    def eof_received(self) -> bool | None:
        self.lost = True
        self._wake()
        return None  # close the transport

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        self._wake()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def more(self) -> None:
        """Wait for more bytes (raises `HttpError` when the connection has ended)."""
        if self.lost:
            raise HttpError("the server closed the connection")
        self._waiter = asyncio.get_running_loop().create_future()
        try:
            await self._waiter
        finally:
            self._waiter = None

    async def more_or_end(self) -> None:
        """Wait for more bytes or the end of the connection."""
        if not self.lost:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None

    def take_line(self) -> bytes | None:
        """The next line, without its line end, if the buffer holds it whole (else None)."""
        end = self.buffer.find(b"\n")
        if end < 0:
            return None
        line = bytes(self.buffer[:end]).rstrip(b"\r")
        del self.buffer[: end + 1]
        return line

    async def line(self) -> bytes:
        """The next line, without its line end."""
        while (line := self.take_line()) is None:
            if len(self.buffer) > _MAX_HEAD:
                raise HttpError("a line of the reply is too long")
            await self.more()
        return line

    def take_head(self) -> list[bytearray] | None:
        """The lines of a reply head the buffer holds whole, if its lines all end in one CRLF.

        None (nothing taken) otherwise: `line` then reads the head line by line, which also
        accepts bare LF line ends and enforces the size limits. Both read the same lines.
        """
        buffer = self.buffer
        end = buffer.find(b"\r\n\r\n")
        if end < 0 or end > _MAX_HEAD:
            return None
        head = buffer[:end]
        if head.count(b"\n") != head.count(b"\r\n") or b"\r\r\n" in head or head[-1:] == b"\r":
            return None  # a bare LF, or a line ending in CR before its CRLF
        del buffer[: end + 4]
        return head.split(b"\r\n")

    def take(self, size: int) -> bytes | None:
        """The next `size` bytes, if the buffer holds them (else None, nothing taken)."""
        buffer = self.buffer
        if len(buffer) < size:
            return None
        if len(buffer) == size:
            data = bytes(buffer)
            buffer.clear()
            return data
        data = bytes(buffer[:size])
        del buffer[:size]
        return data

    async def exactly(self, size: int) -> bytes:
        while (data := self.take(size)) is None:
            await self.more()
        return data

    def close(self) -> None:
        self.lost = True
        if self.transport is not None:
            self.transport.close()


class HttpReply:
    """A reply whose head has been read; read its body once, with `read` or `lines`.

    Attributes:
        status: The HTTP status code.
        headers: Header values by lower-case name (repeated headers joined with ``", "``).
    """

    def __init__(
        self, pool: ConnectionPool, endpoint: Endpoint, connection: _Connection, status: int
    ) -> None:
        self.status = status
        self.headers: dict[str, str] = {}
        self._pool = pool
        self._endpoint = endpoint
        self._connection: _Connection | None = connection
        self._reusable = True

    @property
    def content_type(self) -> str:
        """The media type, without parameters (``application/json``)."""
        return self.headers.get("content-type", "").partition(";")[0].strip().lower()

    async def read(self) -> bytes:
        """The whole body (decoded when the server compressed it)."""
        connection = self._connection
        length = self._plain_length()
        if connection is not None and length is not None:  # the usual reply: read at once
            body = connection.take(length)
            if body is None:
                body = await connection.exactly(length)
            self._connection = None
            self._pool.release(self._endpoint, connection, reusable=self._reusable)
        else:
            body = b"".join([piece async for piece in self._pieces()])
        if "content-encoding" not in self.headers:
            return body
        encoding = self.headers["content-encoding"].strip().lower()
        try:
            if encoding in ("gzip", "x-gzip"):
                return zlib.decompress(body, 16 + zlib.MAX_WBITS)
            if encoding == "deflate":
                return zlib.decompress(body)
        except zlib.error as error:
            raise HttpError(f"the {encoding} body does not decode: {error}") from None
        return body

    async def lines(self) -> AsyncIterator[bytes]:
        """The body line by line, as it arrives (server-sent events), line ends kept."""
        pending = b""
        async for piece in self._pieces():
            pending += piece
            *whole, pending = pending.split(b"\n")
            for line in whole:
                yield line + b"\n"
        if pending:
            yield pending

    def _plain_length(self) -> int | None:
        """The body's length when a valid ``Content-Length`` alone frames it, else None."""
        headers = self.headers
        if self.status in (204, 304) or 100 <= self.status < 200:
            return None
        if "transfer-encoding" in headers and "chunked" in headers["transfer-encoding"].lower():
            return None
        length = headers.get("content-length")
        if length is None:
            return None
        try:
            return int(length)
        except ValueError:
            return None  # `_pieces` says so

    def discard(self) -> None:
        """Drop the connection (an exchange abandoned midway cannot be reused)."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    async def _pieces(self) -> AsyncIterator[bytes]:
        connection = self._connection
        if connection is None:
            raise HttpError("the body of this reply was already read")
        headers = self.headers
        if self.status in (204, 304) or 100 <= self.status < 200:
            pass
        elif "chunked" in headers.get("transfer-encoding", "").lower():
            while size := await self._chunk_size(connection):
                yield await connection.exactly(size)
                await connection.exactly(2)  # the CRLF after the chunk
            while await connection.line():  # trailers, up to an empty line
                pass
        elif "content-length" in headers:
            try:
                length = int(headers["content-length"])
            except ValueError:
                raise HttpError(f"bad Content-Length: {headers['content-length']!r}") from None
            yield await connection.exactly(length)
        else:  # the body ends with the connection
            self._reusable = False
            while not connection.lost:
                if connection.buffer:
                    yield bytes(connection.buffer)
                    connection.buffer.clear()
                await connection.more_or_end()
            yield bytes(connection.buffer)
        self._connection = None
        self._pool.release(self._endpoint, connection, reusable=self._reusable)

    @staticmethod
    async def _chunk_size(connection: _Connection) -> int:
        line = await connection.line()
        try:
            return int(line.split(b";", 1)[0].strip(), 16)
        except ValueError:
            raise HttpError(f"bad chunk size line: {line[:40]!r}") from None


class ConnectionPool:
    """Kept-alive connections of one event loop, by endpoint (host, port, TLS)."""

    def __init__(self) -> None:
        self._idle: dict[tuple[str, int, bool], list[_Connection]] = {}
        self._open: set[_Connection] = set()

    async def post(self, endpoint: Endpoint, body: bytes) -> HttpReply:
        """Send one POST with `body` and read the reply's head.

        Raises:
            HttpError: No connection could be made, or it broke before the head was read.
        """
        request = b"%s%d\r\n\r\n%s" % (endpoint.head, len(body), body)
        while True:
            connection, reused = self._idle_connection(endpoint), True
            if connection is None:
                connection, reused = await self._connect(endpoint), False
            assert connection.transport is not None
            before = connection.received
            connection.transport.write(request)
            try:
                return await self._head(endpoint, connection)
            except HttpError:
                connection.close()
                self._open.discard(connection)
                if reused and connection.received == before:
                    continue  # the server had closed the idle connection: use a fresh one
                raise
            except BaseException:
                connection.close()
                self._open.discard(connection)
                raise

    def release(self, endpoint: Endpoint, connection: _Connection, *, reusable: bool) -> None:
        """Take back a connection whose reply was read whole."""
        if reusable and not connection.lost and not connection.buffer:
            connection.idle_since = asyncio.get_running_loop().time()
            self._idle.setdefault(endpoint.key, []).append(connection)
        else:
            connection.close()
            self._open.discard(connection)

    def close(self) -> None:
        """Close every connection (the loop is ending)."""
        for connection in self._open:
            connection.close()
        self._open.clear()
        self._idle.clear()

    def _idle_connection(self, endpoint: Endpoint) -> _Connection | None:
        idle = self._idle.get(endpoint.key)
        if not idle:
            return None
        now = asyncio.get_running_loop().time()
        while idle:
            connection = idle.pop()
            fresh = now - connection.idle_since < _KEEP_IDLE
            if fresh and not connection.lost and not connection.buffer:
                return connection
            connection.close()
            self._open.discard(connection)
        return None

    async def _connect(self, endpoint: Endpoint) -> _Connection:
        loop = asyncio.get_running_loop()
        try:
            _, connection = await loop.create_connection(
                _Connection,
                endpoint.host,
                endpoint.port,
                ssl=_tls_context() if endpoint.tls else None,
                server_hostname=endpoint.host if endpoint.tls else None,
            )
        except OSError as error:  # refused, unreachable, no such host, TLS failures
            raise HttpError(
                f"cannot connect to {endpoint.host}:{endpoint.port}: "
                f"{type(error).__name__}: {error}"
            ) from error
        self._open.add(connection)
        return connection

    async def _head(self, endpoint: Endpoint, connection: _Connection) -> HttpReply:
        while True:
            if not connection.buffer:
                await connection.more()  # the reply's first bytes
            lines = connection.take_head()
            status_line = bytes(lines[0]) if lines else await connection.line()
            parts = status_line.split(None, 2)
            if len(parts) < 2 or not parts[0].startswith(b"HTTP/") or not parts[1].isdigit():
                raise HttpError(f"not an HTTP reply: {status_line[:60]!r}")
            reply = HttpReply(self, endpoint, connection, int(parts[1]))
            if lines:  # the whole head was there: no waiting, no size limit to reach
                for header in lines[1:]:
                    _add_header(reply.headers, header)
            else:
                size = len(status_line)
                while line := await connection.line():
                    size += len(line)
                    if size > _MAX_HEAD:
                        raise HttpError("the reply's head is too long")
                    _add_header(reply.headers, line)
            if reply.status >= 200:
                break  # 1xx (100 Continue...) are followed by the real reply
        closing = reply.headers.get("connection", "").lower()
        if closing == "close" or (parts[0] == b"HTTP/1.0" and closing != "keep-alive"):
            reply._reusable = False
        return reply


def _add_header(headers: dict[str, str], line: bytes | bytearray) -> None:
    """Record one header line (a repeated header's values joined with ``", "``)."""
    name, colon, value = line.decode("latin-1").partition(":")
    if not colon:
        raise HttpError(f"bad header line: {bytes(line[:60])!r}")
    key, value = name.strip().lower(), value.strip()
    known = headers.get(key)
    headers[key] = value if known is None else f"{known}, {value}"
