"""Bad requests to the OpenEnv server, and the 4xx JSON answers they get over HTTP.

`TauOpenEnv` raises a `RequestError` for anything wrong with a request (an unknown task, split
or index, a step without an episode, a field of the wrong type); nothing has changed when it
does. Over HTTP `install_error_handlers` turns it into its status with FastAPI's error shape
(``{"detail": "..."}``); over the WebSocket OpenEnv sends it as an error frame with the same
message, and the session goes on.
"""

from __future__ import annotations

from typing import Any

from tau_env.errors import TauEnvError

__all__ = ["InvalidRequest", "NoEpisode", "NotFound", "RequestError", "install_error_handlers"]


class RequestError(TauEnvError):
    """A request the server cannot serve as asked; `status_code` is its HTTP status."""

    status_code = 400


class InvalidRequest(RequestError, ValueError):
    """A request field has the wrong type or a value that can never be served."""

    status_code = 422


class NotFound(RequestError, LookupError):
    """The task, split or index asked for does not exist."""

    status_code = 404


class NoEpisode(RequestError):
    """A step with no episode in progress (never reset, or the episode has ended)."""

    status_code = 409


def install_error_handlers(app: Any) -> None:
    """Answer every `RequestError` raised while serving an HTTP request with its 4xx JSON."""
    from fastapi.responses import JSONResponse

    async def answer(request: Any, error: Exception) -> Any:
        status = error.status_code if isinstance(error, RequestError) else 400
        return JSONResponse({"detail": str(error)}, status_code=status)

    app.add_exception_handler(RequestError, answer)
