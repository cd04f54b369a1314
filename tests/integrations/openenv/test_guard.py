"""Who may open and drive a session: no MCP sessions, no attaching, no foreign pages."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
import uuid

import pytest

import tau_env
from tests.extras import require

require("openenv", "openenv")

TASK = tau_env.load_tasks("telecom", split="test")[0].id
TRUSTED = "http://trusted.example:3000"
CREATE = {"jsonrpc": "2.0", "method": "openenv/session/create", "params": {}, "id": 1}


@pytest.fixture(scope="module")
def guarded():
    from tau_env.testing.serving import served

    with served(["--domain", "telecom", "--max-sessions", "2"]) as url:
        yield url


def post(url: str, body: bytes | dict, content_type: str | None = "application/json", **headers):
    """POST; the status and the JSON answer."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    if content_type is not None:
        headers["Content-Type"] = content_type
    request = urllib.request.Request(url, data=data, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def ws_url(url: str, query: str = "") -> str:
    return url.replace("http", "ws", 1) + "/ws" + query


async def ask(ws, kind: str, data: dict | None = None) -> dict:
    message = {"type": kind} if data is None else {"type": kind, "data": data}
    await ws.send(json.dumps(message))
    return json.loads(await ws.recv())


def test_mcp_session_create__refused_and_never_fills_the_sessions(guarded):
    """Issue 56, defect 2: 256 text/plain creations locked every WebSocket out, for good."""
    import websockets

    answers = [post(guarded + "/mcp", CREATE, "text/plain") for _ in range(3)]
    answers += [post(guarded + "/mcp", CREATE) for _ in range(3)]  # as JSON too

    async def main():
        url = ws_url(guarded)
        async with websockets.connect(url) as a, websockets.connect(url) as b:
            return [await ask(ws, "reset", {"task_id": TASK, "seed": 0}) for ws in (a, b)]

    played = asyncio.run(main())
    assert {status for status, _ in answers} == {404}
    assert "does not serve MCP" in answers[-1][1]["detail"]
    assert [p["type"] for p in played] == ["observation", "observation"]  # both slots were free


def test_sessions__bound_to_their_connection(guarded):
    """Issue 56, defect 3: another connection could attach to a session by id, or close it."""
    import websockets

    async def main():
        async with websockets.connect(ws_url(guarded)) as owner:
            await ask(owner, "reset", {"task_id": TASK, "seed": 0})
            mcp = {"jsonrpc": "2.0", "method": "openenv/session/create", "params": {}, "id": 1}
            asked_id = await ask(owner, "mcp", mcp)
            close = {**mcp, "method": "openenv/session/close"}
            close["params"] = {"session_id": str(uuid.uuid4())}
            asked_close = await ask(owner, "mcp", close)
            async with websockets.connect(ws_url(guarded, f"?session_id={uuid.uuid4()}")) as other:
                attach = json.loads(await other.recv())
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    await other.recv()
            still = await ask(owner, "state")
            return asked_id, asked_close, attach, closed.value.rcvd.code, still

    asked_id, asked_close, attach, code, still = asyncio.run(main())
    assert asked_id["data"]["code"] == "MCP_NOT_SERVED"
    assert asked_close["data"]["code"] == "MCP_NOT_SERVED"
    assert attach["data"]["code"] == "ATTACH_REFUSED"
    assert code == 1008
    assert still["type"] == "state" and still["data"]["done"] is False  # the episode goes on
    assert post(guarded + "/mcp", {**CREATE, "method": "openenv/session/close"})[0] == 404


@pytest.mark.parametrize(
    ("origin", "allowed"),
    [
        ("http://evil.example", False),
        ("null", False),
        ("http://localhost.evil.example:{port}", False),
        ("http://127.0.0.1:{port}", True),  # the server's own pages (its /docs)
        ("http://localhost:{port}", False),  # not how the client named the server: not its own
    ],
)
def test_websocket_origin__only_the_server_and_allowed_pages(guarded, origin, allowed):
    import websockets

    port = guarded.rsplit(":", 1)[1]
    origin = origin.format(port=port)

    async def main():
        async with websockets.connect(ws_url(guarded), origin=origin) as ws:
            return await ask(ws, "state") if allowed else json.loads(await ws.recv())

    answer = asyncio.run(main())
    if allowed:
        assert answer["type"] == "state"
    else:
        assert answer["data"]["code"] == "ORIGIN_REFUSED"
        assert "--allow-origin" in answer["data"]["message"]


def test_http__foreign_origins_and_bodies_a_page_can_send_are_refused(guarded):
    foreign = post(guarded + "/reset", {"seed": 0}, Origin="http://evil.example")
    plain = post(guarded + "/reset", b'{"seed": 0}', "text/plain")
    form = post(guarded + "/reset", b"seed=0", "application/x-www-form-urlencoded")
    json_body = post(guarded + "/reset", {"seed": 0}, "application/json; charset=utf-8")
    assert foreign[0] == 403 and "--allow-origin" in foreign[1]["detail"]
    assert plain[0] == 415 and "application/json" in plain[1]["detail"]
    assert form[0] == 415
    assert json_body[0] == 200


def call_guard(scope: dict, allowed: tuple[str, ...] = ()) -> list[dict]:
    """Run `GuardMiddleware` on one request in-process; what it sent (empty: passed on)."""
    from tau_env.integrations.openenv.guard import GuardMiddleware

    sent: list[dict] = []

    async def app(scope, receive, send):
        return None

    async def receive():
        return {"type": "websocket.connect"}

    async def send(message):
        sent.append(message)

    asyncio.run(GuardMiddleware(app, allowed)(scope, receive, send))
    return sent


@pytest.mark.parametrize("kind", ["http", "websocket"])
def test_allow_origin__listed_pages_pass_others_are_refused(kind):
    def scope(origin: str) -> dict:
        headers = [(b"host", b"127.0.0.1:8000"), (b"origin", origin.encode())]
        return {"type": kind, "path": "/ws", "method": "GET", "headers": headers}

    assert call_guard(scope(TRUSTED), (TRUSTED,)) == []
    assert call_guard(scope(TRUSTED + "/"), (TRUSTED.upper(),)) == []
    refused = call_guard(scope("http://other.example"), (TRUSTED,))
    assert refused[0]["type"] in ("http.response.start", "websocket.accept")
    assert call_guard(scope("http://[::1]:8000"), ()) != []  # not the Host the client named
