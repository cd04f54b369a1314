"""Shared HTTP sessions (one per event loop) and the loop of synchronous calls.

Every `LLMClient` on the lean route sends through the `aiohttp.ClientSession` of the running
event loop, so a run's episodes reuse the same kept-alive connections instead of opening their
own. The session closes when its loop shuts down normally (``asyncio.run`` finalises
asynchronous generators; an idle generator holds the session and closes it then).

Proxies (``HTTP(S)_PROXY``, ``NO_PROXY``) and ``.netrc`` credentials are honoured as httpx
(litellm's client) honours them, but read once per endpoint and environment (`env_settings`),
not on every request: aiohttp's own ``trust_env`` reads them per request, on two thread hops.

Synchronous calls (`LLMClient.complete_sync`) run the same asynchronous code on one background
event loop in a daemon thread, so there is a single retry loop and a single pool for them too.
aiohttp is imported on first use.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import ssl
import threading
import weakref
from collections.abc import AsyncIterator, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from tau_env.utils.environ import environ_cached

if TYPE_CHECKING:
    import aiohttp

__all__ = [
    "EnvSettings",
    "LoopPool",
    "env_settings",
    "loop_pool",
    "run_sync",
    "shared_session",
]

T = TypeVar("T")


@dataclass
class LoopPool:
    """What the lean route's calls on one event loop share.

    Attributes:
        session: The aiohttp session (made on first use).
        keeper: The parked generator that closes the session when the loop shuts down.
    """

    session: aiohttp.ClientSession | None = None
    keeper: AsyncIterator[None] | None = None
    started: bool = False


_pools: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LoopPool] = weakref.WeakKeyDictionary()


async def _keep(pool: LoopPool) -> AsyncIterator[None]:
    """Parked at its ``yield`` for the loop's lifetime; closes the session when finalised."""
    try:
        yield
    finally:
        if pool.session is not None:
            await pool.session.close()


async def loop_pool() -> LoopPool:
    """The running loop's pool (made on first use)."""
    loop = asyncio.get_running_loop()
    pool = _pools.get(loop)
    if pool is None:
        pool = LoopPool()
        pool.keeper = _keep(pool)
        _pools[loop] = pool
    if not pool.started and pool.keeper is not None:
        pool.started = True
        await pool.keeper.__anext__()  # registers the generator with the loop, which closes it
    return pool


async def shared_session() -> aiohttp.ClientSession:
    """The running loop's pooled aiohttp session (created on first use).

    Raises:
        ImportError: aiohttp is not installed; the message names the extra to install.
    """
    try:
        import aiohttp
    except ImportError as error:  # pragma: no cover - depends on the installation
        raise ImportError("model calls need aiohttp: pip install 'tau-env[llm]'") from error

    pool = await loop_pool()
    if pool.session is None or pool.session.closed:
        # The system's certificates as `ssl` reads them now (``SSL_CERT_FILE``/``SSL_CERT_DIR``
        # honoured, as httpx honours them), not the context aiohttp made at import.
        connector = aiohttp.TCPConnector(
            limit=0, keepalive_timeout=60.0, ttl_dns_cache=300, ssl=ssl.create_default_context()
        )
        pool.session = aiohttp.ClientSession(
            connector=connector,
            skip_auto_headers=("User-Agent",),
            trust_env=False,  # proxies and .netrc: `env_settings`, once per endpoint
        )
    return pool.session


@dataclass(frozen=True)
class EnvSettings:
    """What the environment says about requests to one URL.

    Attributes:
        proxy: The proxy to go through (None: direct).
        proxy_auth: The proxy's credentials (from its URL or ``.netrc``).
        netrc_auth: Credentials ``.netrc`` holds for the URL's host (sent only by callers that
            have no key of their own).
    """

    proxy: Any = None
    proxy_auth: Any = None
    netrc_auth: Any = None


@environ_cached
def env_settings(url: str) -> EnvSettings:
    """The proxy and ``.netrc`` settings for `url` (read again when the environment changes).

    The rules of aiohttp's ``trust_env`` (``getproxies``, ``proxy_bypass``, the ``.netrc`` at
    ``$NETRC`` or in the home folder), evaluated once per URL and environment rather than per
    request.
    """
    from aiohttp import helpers
    from yarl import URL

    target = URL(url)
    proxy = proxy_auth = netrc_auth = None
    with contextlib.suppress(LookupError):
        proxy, proxy_auth = helpers.get_env_proxy_for_url(target)
    if target.host is not None:
        with contextlib.suppress(LookupError):
            netrc_auth = helpers.basicauth_from_netrc(helpers.netrc_from_env(), target.host)
    return EnvSettings(proxy, proxy_auth, netrc_auth)


class _Background:
    """A daemon thread running an event loop for synchronous callers (one per process)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread: threading.Thread | None = None
        self.pid = 0

    def loop_for_calls(self) -> asyncio.AbstractEventLoop:
        with self.lock:
            if self.loop is None or self.pid != os.getpid():  # a forked child starts its own
                loop = asyncio.new_event_loop()
                thread = threading.Thread(
                    target=loop.run_forever, name="tau-env-llm-sync", daemon=True
                )
                thread.start()
                self.loop, self.thread, self.pid = loop, thread, os.getpid()
            return self.loop

    def stop(self) -> None:
        """Close the background loop's pool and stop it (at interpreter exit)."""
        loop, thread = self.loop, self.thread
        if loop is None or thread is None or self.pid != os.getpid() or not thread.is_alive():
            return
        with contextlib.suppress(Exception):  # best effort at exit
            asyncio.run_coroutine_threadsafe(loop.shutdown_asyncgens(), loop).result(timeout=5)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=5)


_background = _Background()
atexit.register(_background.stop)


def run_sync(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run `coroutine` on the background loop and wait for its result (blocks this thread).

    Raises:
        RuntimeError: Called from the background loop's own thread (it would wait on itself).
    """
    loop = _background.loop_for_calls()
    if threading.current_thread() is _background.thread:
        coroutine.close()
        raise RuntimeError("a synchronous model call cannot be made from its own event loop")
    return asyncio.run_coroutine_threadsafe(coroutine, loop).result()
