"""Bad requests to the OpenEnv server, and the 4xx JSON answers they get over HTTP.

`TauOpenEnv` raises a `RequestError` for anything wrong with a request (an unknown task, split
or index, a step without an episode, a field of the wrong type); nothing has changed when it
does. Over HTTP `install_error_handlers` turns it into its status with FastAPI's error shape
(``{"detail": "..."}``); over the WebSocket OpenEnv sends it as an error frame with the same
message, and the session goes on.

A request that fails validation (FastAPI's 422, OpenEnv's for an action) is answered on one
line, ``loc: message (type)`` for each error, without quoting the value: FastAPI's own answer
quotes it, and a value JSON cannot write (a lone surrogate, an infinite or NaN number, all of
which a request may hold) turned the answer into a 500. Every answer is written as ASCII JSON,
so no text breaks it.
"""

from __future__ import annotations

import json
from typing import Any

from tau_env.errors import TauEnvError

__all__ = [
    "InvalidRequest",
    "NoEpisode",
    "NotFound",
    "RequestError",
    "install_error_handlers",
    "validation_text",
]


class RequestError(TauEnvError):
    """A request the server cannot serve as asked; `status_code` is its HTTP status."""

    status_code = 400


class InvalidRequest(RequestError, ValueError):
    """A request field has the wrong type or a value that can never be served."""

    status_code = 422


class NotFound(RequestError, LookupError):
    """The task, split or index asked for does not exist, or this server cannot play it."""

    status_code = 404


class NoEpisode(RequestError):
    """A step with no episode in progress (never reset, or the episode has ended)."""

    status_code = 409


def validation_text(errors: Any) -> str:
    """FastAPI's validation errors on one line, without the values (``body.seed: ... (type)``)."""
    parts = []
    for error in list(errors)[:10]:
        where = ".".join(str(part) for part in error.get("loc", ()))
        parts.append(f"{where}: {error.get('msg', 'invalid')} ({error.get('type', 'invalid')})")
    return "; ".join(parts) or "invalid request"


def install_error_handlers(app: Any) -> None:
    """Answer bad HTTP requests with their 4xx JSON (`RequestError`s and validation errors)."""
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import Response
    from starlette.exceptions import HTTPException

    def answer(status: int, text: str, headers: Any = None) -> Any:
        body = json.dumps({"detail": text}, ensure_ascii=True)
        return Response(body, status_code=status, media_type="application/json", headers=headers)

    async def request_error(request: Any, error: Exception) -> Any:
        status = error.status_code if isinstance(error, RequestError) else 400
        return answer(status, str(error))

    async def invalid(request: Any, error: Exception) -> Any:
        errors = error.errors() if isinstance(error, RequestValidationError) else ()
        return answer(422, validation_text(errors))

    async def http_error(request: Any, error: Exception) -> Any:
        if not isinstance(error, HTTPException):
            return answer(500, "internal error")
        detail = error.detail
        text = validation_text(detail) if isinstance(detail, list) else str(detail)
        return answer(error.status_code, text, error.headers)

    app.add_exception_handler(RequestError, request_error)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(HTTPException, http_error)
