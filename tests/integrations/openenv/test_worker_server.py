"""A worker's uvicorn server: unfinished requests cannot take every connection; readiness."""

from __future__ import annotations

import socket
import threading
import time
import urllib.request

import pytest

from tests.extras import require

require("openenv", "openenv")

SLOW = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n"  # and never the blank line


def open_slow(port: int, count: int) -> list[socket.socket]:
    """`count` connections that each send the start of a request, and nothing more."""
    sockets = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        sock.sendall(SLOW)
        sockets.append(sock)
    return sockets


def test_unfinished_requests__past_the_descriptor_limit_the_server_still_answers():
    """Issue 56, defect 5: with ``ulimit -n 1024``, 1,100 unfinished requests stopped the
    server accepting connections (here the same at 256 and 300)."""
    from tau_env.testing.serving import served

    with served(["--domain", "telecom"], open_files=256) as url:
        port = int(url.rsplit(":", 1)[1])
        slow = open_slow(port, 300)
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=60) as response:
                status = response.status
        finally:
            for sock in slow:
                sock.close()
    assert status == 200


async def hello(scope, receive, send):
    """A tiny ASGI app: 200 "hello" to every HTTP request; a WebSocket echoes what it gets."""
    if scope["type"] == "http":
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"hello"})
    elif scope["type"] == "websocket":
        await receive()  # the handshake
        await send({"type": "websocket.accept"})
        while (message := await receive())["type"] == "websocket.receive":
            await send({"type": "websocket.send", "text": message["text"]})


@pytest.fixture
def worker(monkeypatch):
    """A `WorkerServer` in a thread on a free port, a budget of 8 connections, 1 s timeout."""
    from tau_env.integrations.openenv import worker_server
    from tau_env.testing.serving import free_port

    monkeypatch.setattr(worker_server, "REQUEST_TIMEOUT", 1.0)
    port = free_port()
    ready = threading.Event()
    config = worker_server.GuardedConfig(
        hello, worker_server.ConnectionBudget(8), host="127.0.0.1", port=port, log_level="error"
    )
    server = worker_server.WorkerServer(config, on_ready=ready.set)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    assert ready.wait(60)
    yield port
    server.should_exit = True
    thread.join(30)


def closed(sock: socket.socket, wait: float) -> bool:
    """True when the server closed `sock` within `wait` seconds (end of stream)."""
    sock.settimeout(wait)
    try:
        return sock.recv(1) == b""
    except TimeoutError:
        return False
    except OSError:
        return True


def test_request_timeout__an_unfinished_request_is_closed(worker):
    (slow,) = open_slow(worker, 1)
    assert closed(slow, 30)
    with urllib.request.urlopen(f"http://127.0.0.1:{worker}/", timeout=30) as response:
        assert response.read() == b"hello"


def test_budget__the_oldest_unfinished_request_makes_room(worker, monkeypatch):
    from tau_env.integrations.openenv import worker_server

    monkeypatch.setattr(worker_server, "REQUEST_TIMEOUT", 60.0)  # room, not time, closes here
    slow = open_slow(worker, 8)
    time.sleep(0.2)  # all eight held
    with urllib.request.urlopen(f"http://127.0.0.1:{worker}/", timeout=30) as response:
        answer = response.read()
    oldest_closed = closed(slow[0], 0.5)
    newest_open = not closed(slow[-1], 0.05)
    for sock in slow:
        sock.close()
    assert answer == b"hello"
    assert oldest_closed and newest_open


def test_request_timeout__a_websocket_is_past_it_once_open(worker):
    """The request timeout closed WebSocket sessions (their h11 state still read 'body')."""
    import asyncio

    import websockets

    async def main():
        async with websockets.connect(f"ws://127.0.0.1:{worker}/") as ws:
            await asyncio.sleep(2.5)  # past the timeout of 1 s
            await ws.send("still here")
            return await ws.recv()

    assert asyncio.run(main()) == "still here"
