"""Whether a model server given by URL answers at all, asked once before a run starts.

A run that names its own endpoint (``--agent-api-base http://127.0.0.1:8000/v1``) and finds
nothing listening there would otherwise learn it on the first model call of every episode,
after the client's retries (half a minute and more). One TCP connection with a short timeout
says it at once. Only the connection is tried: no request is sent, so no key, model name or
path is checked here (the first call reports those). A URL that the environment sends through
a proxy is not probed: the proxy, not this machine, connects to it.
"""

from __future__ import annotations

import socket
import urllib.request
from urllib.parse import urlsplit

from tau_env.errors import TauEnvError

__all__ = ["PROBE_TIMEOUT", "EndpointUnreachable", "check_reachable"]

PROBE_TIMEOUT = 3.0
"""Seconds the connection may take (a local or LAN server answers in milliseconds)."""

_DEFAULT_PORTS = {"http": 80, "https": 443}


class EndpointUnreachable(TauEnvError, ConnectionError):
    """Nothing accepts a connection at a model server's address."""


def check_reachable(url: str, *, what: str, timeout: float = PROBE_TIMEOUT) -> None:
    """Raise `EndpointUnreachable` unless a TCP connection to `url`'s host and port opens.

    Args:
        url: The server's base URL (``http://host:port/v1``).
        what: Names the URL in the message (``"--agent-api-base"``).
        timeout: Seconds allowed for the connection.

    Raises:
        EndpointUnreachable: The URL has no host, or the connection is refused or times out.
    """
    parts = urlsplit(url)
    host = parts.hostname
    try:
        port = parts.port or _DEFAULT_PORTS.get(parts.scheme)
    except ValueError:  # a port that is not a number
        port = None
    if not host or port is None:
        raise EndpointUnreachable(f"{what} {url}: not a URL with a host (http://host:port/v1)")
    if parts.scheme in urllib.request.getproxies() and not urllib.request.proxy_bypass(host):
        return
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise EndpointUnreachable(
            f"{what} {url}: nothing answers at {host}:{port} ({reason}); start the model "
            "server or correct the URL"
        ) from None
