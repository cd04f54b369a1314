import asyncio
import gzip
import ssl
import warnings

import pytest

from tau_env.llm import LLMClient
from tau_env.llm.http1 import ConnectionPool, Endpoint, HttpError
from tau_env.testing.fake_openai import FakeReply

HELLO = [{"role": "user", "content": "Hello"}]


class RawServer:
    """Answers every request on a connection with the next canned bytes, then maybe hangs up."""

    def __init__(self, replies, *, close_after_each=False):
        self.replies = list(replies)
        self.close_after_each = close_after_each
        self.requests = []
        self.connections = 0

    async def __aenter__(self):
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc):
        self.server.close()
        await self.server.wait_closed()

    def endpoint(self, headers=None):
        return Endpoint.of(f"http://127.0.0.1:{self.port}/v1/chat/completions", headers or {})

    async def _serve(self, reader, writer):
        self.connections += 1
        try:
            while self.replies:
                head = await reader.readuntil(b"\r\n\r\n")
                length = int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0])
                self.requests.append((head, await reader.readexactly(length)))
                writer.write(self.replies.pop(0))
                await writer.drain()
                if self.close_after_each:
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        writer.close()


def _ok(body, *extra):
    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + b"".join(extra)
    return head + b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def test_post__sends_head_and_body_and_reuses_the_connection():
    async def main():
        async with RawServer([_ok(b"one"), _ok(b"two")]) as server:
            pool = ConnectionPool()
            endpoint = server.endpoint({"Authorization": "Bearer k"})
            first = await (await pool.post(endpoint, b'{"a": 1}')).read()
            second = await (await pool.post(endpoint, b"{}")).read()
            pool.close()
            return server, first, second

    server, first, second = asyncio.run(main())
    assert (first, second) == (b"one", b"two")
    assert server.connections == 1  # kept alive
    head, body = server.requests[0]
    assert head.startswith(b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:")
    assert b"Authorization: Bearer k\r\n" in head and body == b'{"a": 1}'


def test_post__reads_chunked_gzip_and_until_close_bodies_and_lines():
    chunked = (
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked"
        b"\r\n\r\n7\r\ndata: a\r\n5\r\n\ndata\r\n4\r\n: b\n\r\n0\r\n\r\n"
    )
    packed = gzip.compress(b'{"x": 1}')
    until_close = b"HTTP/1.0 200 OK\r\n\r\nall of it"

    async def main():
        replies = [chunked, _ok(packed, b"Content-Encoding: gzip\r\n"), until_close]
        async with RawServer(replies) as s:
            pool = ConnectionPool()
            lines = [line async for line in (await pool.post(s.endpoint(), b"")).lines()]
            unpacked = await (await pool.post(s.endpoint(), b"")).read()
            reply = await pool.post(s.endpoint(), b"")
            rest = await reply.read()
            pool.close()
            return lines, unpacked, reply.content_type, rest, s.connections

    lines, unpacked, content_type, rest, connections = asyncio.run(main())
    assert lines == [b"data: a\n", b"data: b\n"]
    assert unpacked == b'{"x": 1}'
    assert (content_type, rest) == ("", b"all of it")
    assert connections == 1  # the HTTP/1.0 reply closes it afterwards, not before


def test_post__replaces_a_kept_connection_the_server_closed_while_idle():
    async def main():
        async with RawServer([_ok(b"one"), _ok(b"two")], close_after_each=True) as server:
            pool = ConnectionPool()
            await (await pool.post(server.endpoint(), b"")).read()
            await asyncio.sleep(0.05)  # the server hangs up the idle connection
            second = await (await pool.post(server.endpoint(), b"")).read()
            pool.close()
            return second, server.connections

    assert asyncio.run(main()) == (b"two", 2)


def test_post__a_reply_cut_midway_or_not_http_is_an_http_error():
    cut = b"HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nonly this"

    async def attempt(raw):
        async with RawServer([raw], close_after_each=True) as server:
            pool = ConnectionPool()
            try:
                with pytest.raises(HttpError) as caught:
                    await (await pool.post(server.endpoint(), b"")).read()
            finally:
                pool.close()
            return str(caught.value)

    assert "closed the connection" in asyncio.run(attempt(cut))
    assert "not an HTTP reply" in asyncio.run(attempt(b"SSH-2.0-OpenSSH\r\n\r\n"))


def test_post__refused_connections_name_the_endpoint():
    async def main():
        async with RawServer([]) as server:
            endpoint = server.endpoint()
        with pytest.raises(HttpError, match=f"cannot connect to 127.0.0.1:{endpoint.port}"):
            await ConnectionPool().post(endpoint, b"")

    asyncio.run(main())


def test_endpoint__rejects_urls_without_host_and_headers_with_line_breaks():
    with pytest.raises(ValueError, match="http"):
        Endpoint.of("localhost:8000/v1", {})
    with pytest.raises(ValueError, match="X-Evil"):
        Endpoint.of("http://h/v1", {"X-Evil": "a\r\nInjected: 1"})
    assert Endpoint.of("https://api.example.com/v1/x?y=1", {}).head.startswith(
        b"POST /v1/x?y=1 HTTP/1.1\r\nHost: api.example.com\r\n"
    )


def test_lean_route__goes_through_the_proxy_the_environment_names(server, monkeypatch):
    server.push(FakeReply.text("via proxy"))
    # the fake server plays the proxy too: it receives the absolute-form request target
    monkeypatch.setenv("HTTP_PROXY", server.base_url.rsplit("/v1", 1)[0])
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    config = server.config()
    config = type(config)(config.model, api_base="http://model.invalid/v1", route="lean")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        reply = LLMClient(config).complete_sync(HELLO)
    assert reply.content == "via proxy"
    assert server.requests[0].path == "http://model.invalid/v1/chat/completions"


def _self_signed(folder):
    """A certificate for 127.0.0.1 and its key, as PEM files."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = folder / "cert.pem", folder / "key.pem"
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_file, key_file


def test_post__speaks_tls_to_https_endpoints_and_checks_the_certificate(tmp_path, monkeypatch):
    cert_file, key_file = _self_signed(tmp_path)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert_file, key_file)

    async def answer(reader, writer):
        await reader.readuntil(b"\r\n\r\n")
        writer.write(_ok(b"secret"))
        await writer.drain()
        writer.close()

    async def main():
        server = await asyncio.start_server(answer, "127.0.0.1", 0, ssl=context)
        port = server.sockets[0].getsockname()[1]
        endpoint = Endpoint.of(f"https://127.0.0.1:{port}/v1/chat/completions", {})
        pool = ConnectionPool()
        try:
            with pytest.raises(HttpError, match="CERTIFICATE_VERIFY_FAILED"):
                await pool.post(endpoint, b"{}")  # not in the default store: refused
            monkeypatch.setenv("SSL_CERT_FILE", str(cert_file))  # trusted from now on
            return await (await pool.post(endpoint, b"{}")).read()
        finally:
            pool.close()
            server.close()
            await server.wait_closed()

    assert asyncio.run(main()) == b"secret"


def test_post__resends_once_on_a_fresh_connection_when_a_kept_one_closes_unanswered():
    seen = []

    async def answer(reader, writer):
        seen.append("connection")
        try:
            for turn in range(2):
                await reader.readuntil(b"\r\n\r\n")
                if len(seen) == 1 and turn == 1:
                    break  # the first connection hangs up on its second request, unanswered
                writer.write(_ok(b"ok"))
                await writer.drain()
        except asyncio.IncompleteReadError:
            pass
        writer.close()

    async def main():
        server = await asyncio.start_server(answer, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        endpoint = Endpoint.of(f"http://127.0.0.1:{port}/v1/chat/completions", {})
        pool = ConnectionPool()
        try:
            replies = [await (await pool.post(endpoint, b"{}")).read() for _ in range(2)]
        finally:
            pool.close()
            server.close()
            await server.wait_closed()
        return replies

    assert asyncio.run(main()) == [b"ok", b"ok"]
    assert seen == ["connection", "connection"]
