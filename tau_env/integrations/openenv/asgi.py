"""The few ASGI pieces the server's middlewares share: types, headers, error answers."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

__all__ = [
    "ASGIApp",
    "Message",
    "Receive",
    "Scope",
    "Send",
    "error_frame",
    "header",
    "json_response",
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def header(scope: Scope, name: bytes) -> str | None:
    """The value of a request header (`name` in lower case), or None."""
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def error_frame(code: str, message: str, **extra: Any) -> str:
    """An OpenEnv WebSocket error response."""
    return json.dumps({"type": "error", "data": {"message": message, "code": code, **extra}})


async def json_response(send: Send, status: int, text: str) -> None:
    """Answer an HTTP request with FastAPI's error shape (``{"detail": text}``) and close."""
    body = json.dumps({"detail": text}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
