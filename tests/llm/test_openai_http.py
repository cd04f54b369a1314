"""The lean route's transport (aiohttp): kept-alive connections, proxies, TLS, broken replies."""

import asyncio
import gzip
import json
import ssl
import warnings

import pytest

from tau_env.errors import InfrastructureError
from tau_env.llm import LLMClient, ModelConfig, RetryPolicy
from tau_env.testing.fake_openai import FakeReply

HELLO = [{"role": "user", "content": "Hello"}]
NO_RETRY = RetryPolicy(max_retries=0)


def _completion(text):
    return json.dumps(
        {
            "id": "c",
            "object": "chat.completion",
            "model": "fake",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }
    ).encode()


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

    def client(self, **config):
        base = f"http://127.0.0.1:{self.port}/v1"
        model = ModelConfig("openai/fake", api_base=base, route="lean", **config)
        return LLMClient(model, retry=NO_RETRY)

    async def _serve(self, reader, writer):
        self.connections += 1
        try:
            while self.replies:
                head = await reader.readuntil(b"\r\n\r\n")
                length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
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


def test_lean_route__sends_the_key_and_reuses_one_kept_alive_connection():
    async def main():
        async with RawServer([_ok(_completion("one")), _ok(_completion("two"))]) as server:
            client = server.client(api_key="k")
            first = await client.complete(HELLO)
            second = await client.complete(HELLO)
            return server, first.content, second.content

    server, first, second = asyncio.run(main())
    assert (first, second) == ("one", "two")
    assert server.connections == 1  # kept alive
    head, body = server.requests[0]
    assert head.startswith(b"POST /v1/chat/completions HTTP/1.1\r\n")
    assert b"Authorization: Bearer k\r\n" in head
    assert json.loads(body)["messages"] == HELLO


def test_lean_route__reads_gzip_bodies():
    packed = gzip.compress(_completion("unpacked"))

    async def main():
        async with RawServer([_ok(packed, b"Content-Encoding: gzip\r\n")]) as server:
            return (await server.client().complete(HELLO)).content

    assert asyncio.run(main()) == "unpacked"


def test_lean_route__a_reply_cut_midway_or_not_http_is_a_transient_failure():
    cut = b"HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nonly this"

    async def attempt(raw):
        async with RawServer([raw], close_after_each=True) as server:
            with pytest.raises(InfrastructureError) as caught:
                await server.client().complete(HELLO)
            return str(caught.value)

    assert "ClientPayloadError" in asyncio.run(attempt(cut))
    assert "Bad status line" in asyncio.run(attempt(b"SSH-2.0-OpenSSH\r\n\r\n"))


def test_lean_route__refused_connections_name_the_endpoint():
    async def main():
        async with RawServer([]) as server:
            client = server.client()
            port = server.port
        with pytest.raises(InfrastructureError, match=f"127.0.0.1:{port}"):
            await client.complete(HELLO)

    asyncio.run(main())


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


def test_lean_route__speaks_tls_and_checks_the_certificate(tmp_path, monkeypatch):
    cert_file, key_file = _self_signed(tmp_path)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert_file, key_file)

    async def answer(reader, writer):
        await reader.readuntil(b"\r\n\r\n")
        writer.write(_ok(_completion("secret")))
        await writer.drain()
        writer.close()

    async def call(port):
        model = ModelConfig("openai/fake", api_base=f"https://127.0.0.1:{port}/v1", route="lean")
        return (await LLMClient(model, retry=NO_RETRY).complete(HELLO)).content

    async def main():
        server = await asyncio.start_server(answer, "127.0.0.1", 0, ssl=context)
        port = server.sockets[0].getsockname()[1]
        try:
            with pytest.raises(InfrastructureError, match="CERTIFICATE_VERIFY_FAILED"):
                await call(port)  # not in the default store: refused
            return port
        finally:
            server.close()

    port = asyncio.run(main())

    async def trusted():
        server = await asyncio.start_server(answer, "127.0.0.1", port, ssl=context)
        try:
            return await call(port)
        finally:
            server.close()

    monkeypatch.setenv("SSL_CERT_FILE", str(cert_file))  # trusted by sessions made from now on
    assert asyncio.run(trusted()) == "secret"


def test_lean_route__retries_on_a_fresh_connection_when_a_kept_one_closes_unanswered():
    seen = []

    async def answer(reader, writer):
        seen.append("connection")
        try:
            for turn in range(2):
                await reader.readuntil(b"\r\n\r\n")
                if len(seen) == 1 and turn == 1:
                    break  # the first connection hangs up on its second request, unanswered
                writer.write(_ok(_completion("ok")))
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:  # also when the loop ends with the handler waiting
            writer.close()

    async def main():
        server = await asyncio.start_server(answer, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        model = ModelConfig("openai/fake", api_base=f"http://127.0.0.1:{port}/v1", route="lean")
        client = LLMClient(model, retry=RetryPolicy(max_retries=1, initial_delay=0.01))
        try:
            return [(await client.complete(HELLO)).content for _ in range(2)]
        finally:
            server.close()

    assert asyncio.run(main()) == ["ok", "ok"]
    assert seen == ["connection", "connection"]
