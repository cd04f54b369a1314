"""Who may open and drive a session: web pages, request bodies, the routes not served.

`GuardMiddleware` is plain ASGI in front of `LimitsMiddleware`; it refuses, before anything is
counted or parsed:

- **Foreign web pages.** A browser sends ``Origin`` with every WebSocket handshake and every
  cross-origin request; any page the user visits could otherwise drive a local server. Allowed:
  no ``Origin`` (not a browser), an origin given with ``--allow-origin``, or the server's own
  origin when its host is an IP address or ``localhost`` (a page of the server itself, such as
  ``/docs``). A host name could be a foreign name made to resolve to this address (DNS
  rebinding), so a named origin must be listed. Refused: HTTP 403, or on a WebSocket an error
  frame (``ORIGIN_REFUSED``) and close 1008 (policy violation).
- **Bodies that are not JSON.** A page may send a ``text/plain``, form or multipart body to any
  address without asking first (no CORS preflight); every route reads JSON, so another content
  type is refused with 415.
- **MCP and attaching to a session.** OpenEnv also serves ``/mcp`` (JSON-RPC over HTTP and
  WebSocket, with ``openenv/session/create`` and ``close``) and lets a WebSocket attach to a
  session by id (``/ws?session_id=...``). Sessions made there were not counted by
  ``--max-sessions`` nor closed by ``--idle-timeout``, and whoever held an id could drive or
  close another client's episode. tau_env's episodes take chat messages, not MCP tool calls, so
  none of this is served: ``/mcp`` answers 404 (a WebSocket, an error frame and close 1008), an
  attach is refused the same way, and an ``{"type": "mcp"}`` message on a session is answered
  with an error frame (the session goes on; `message_refusal`). Every session is the WebSocket
  connection that opened it, and only that connection drives or closes it.

`message_refusal` also answers, in OpenEnv's shape, the messages OpenEnv's own parsing would
end the session on (JSON nested too deep, an integer of more than 4,300 digits).
"""

from __future__ import annotations

import ipaddress
import json
import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tau_env.integrations.openenv.asgi import (
    ASGIApp,
    Receive,
    Scope,
    Send,
    error_frame,
    header,
    json_response,
)
from tau_env.utils.surrogates import has_surrogate

__all__ = ["LONE_SURROGATE", "POLICY_VIOLATION", "GuardMiddleware", "message_refusal"]

POLICY_VIOLATION = 1008
"""RFC 6455's close code for a connection refused by the server's policy."""

SCREENED_LENGTH = 1000
"""Messages longer than this are parsed here first (shorter ones cannot nest or be long enough
to break OpenEnv's parser); so are the few that may hold an ``mcp`` type."""

LONE_SURROGATE = (
    "the message holds a lone surrogate (a \\ud800-\\udfff escape that is half of a pair): "
    "it has no UTF-8 form, so nothing could answer it; nothing changed, the session goes on"
)

_OBJECT = re.compile(r"\s*\{")
"""The start of a message that is a JSON object (or not JSON at all, which OpenEnv answers)."""

NOT_SERVED = (
    "this server does not serve MCP or shared sessions: an episode is played over the "
    "WebSocket /ws that opened it, with reset, step, state and close messages"
)


class GuardMiddleware:
    """Refuses foreign origins, bodies that are not JSON, ``/mcp`` and attaches (module doc).

    Args:
        app: The app behind (`LimitsMiddleware` and OpenEnv's app).
        allowed_origins: Origins (``scheme://host[:port]``) whose pages may use the server.
    """

    def __init__(self, app: ASGIApp, allowed_origins: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed_origins = frozenset(origin.rstrip("/").lower() for origin in allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one connection (ASGI), or refuse it."""
        kind = scope["type"]
        if kind == "http":
            answer = self._origin_refusal(scope) or _http_refusal(scope)
            if answer is not None:
                await json_response(send, *answer)
                return
        elif kind == "websocket":
            origin = self._origin_refusal(scope)
            frame = ("ORIGIN_REFUSED", origin[1]) if origin else _websocket_refusal(scope)
            if frame is not None:
                await _refuse_websocket(receive, send, *frame)
                return
        await self.app(scope, receive, send)

    def _origin_refusal(self, scope: Scope) -> tuple[int, str] | None:
        origin = header(scope, b"origin")
        if origin is None or origin.rstrip("/").lower() in self.allowed_origins:
            return None
        host = header(scope, b"host")
        if host is not None and _own_origin(origin, host):
            return None
        return (
            403,
            f"requests from web pages of {origin[:200]!r} are refused: start the server with "
            "--allow-origin for pages that may use it",
        )


def _own_origin(origin: str, host: str) -> bool:
    """True for the server's own origin at an address no other site can claim."""
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or parts.netloc.lower() != host.lower():
        return False
    name = (parts.hostname or "").strip("[]")
    if name == "localhost":
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _http_refusal(scope: Scope) -> tuple[int, str] | None:
    if scope.get("path") == "/mcp":
        return 404, NOT_SERVED
    if scope.get("method") in ("POST", "PUT", "PATCH") and _has_body(scope):
        kind = (header(scope, b"content-type") or "").partition(";")[0].strip().lower()
        if kind != "application/json" and not kind.endswith("+json"):
            shown = kind[:100] or "none"
            return 415, f"send the body as JSON with Content-Type: application/json (got {shown})"
    return None


def _has_body(scope: Scope) -> bool:
    length = header(scope, b"content-length")
    if length is not None:
        return length.strip() != "0"
    return header(scope, b"transfer-encoding") is not None


def _websocket_refusal(scope: Scope) -> tuple[str, str] | None:
    if scope.get("path") == "/mcp":
        return "MCP_NOT_SERVED", NOT_SERVED
    query = bytes(scope.get("query_string", b"")).decode("latin-1")
    if "session_id" in parse_qs(query):
        return "ATTACH_REFUSED", f"attaching to a session by id is refused: {NOT_SERVED}"
    return None


async def _refuse_websocket(receive: Receive, send: Send, code: str, text: str) -> None:
    """Accept the handshake to say why in an error frame, then close (1008)."""
    connect = await receive()
    if connect["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": error_frame(code, text)})
    await send({"type": "websocket.close", "code": POLICY_VIOLATION, "reason": "refused"})


def message_refusal(text: str) -> str | None:
    r"""The error frame answering a WebSocket message instead of OpenEnv; None to pass it on.

    Answered here: an ``{"type": "mcp"}`` message (not served, see the module); text that
    OpenEnv would fail on with an error other than a JSON syntax error (nesting deeper than the
    interpreter's recursion limit, an integer of more than 4,300 digits, JSON that is not an
    object), which ends its session; and a lone surrogate anywhere in the message (a
    ``\ud800`` escape without its other half): it has no UTF-8 form, so any answer quoting it
    (an error echoing the value, a tool result) could not be sent, and the step's results were
    lost. Only messages that may
    be any of these are parsed (`SCREENED_LENGTH`; the word ``"mcp"``, a ``\u`` escape, the
    only way JSON text carries a surrogate, or a first character other than ``{``), so an
    ordinary step is not parsed twice.
    """
    if (
        len(text) <= SCREENED_LENGTH
        and '"mcp"' not in text
        and "\\u" not in text
        and _OBJECT.match(text)
    ):
        return None
    try:
        message: Any = json.loads(text)
    except json.JSONDecodeError:
        return None  # OpenEnv answers it (INVALID_JSON) and the session goes on
    except (ValueError, RecursionError) as error:
        reason = "nested too deep" if isinstance(error, RecursionError) else str(error)
        return error_frame("INVALID_JSON", f"Invalid JSON: {reason[:200]}")
    if not isinstance(message, dict):
        return error_frame("INVALID_JSON", 'a message is a JSON object: {"type": ..., ...}')
    if message.get("type") == "mcp":
        return error_frame("MCP_NOT_SERVED", NOT_SERVED)
    if has_surrogate(message):
        return error_frame("INVALID_TEXT", LONE_SURROGATE)
    return None
