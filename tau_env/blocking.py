"""Blocking twins of coroutine functions: one signature, written once.

`rollout.run` is `rollout.arun` for callers without an event loop, and `LLMClient.complete_sync`
is `LLMClient.complete`; each twin is made by `blocking` so its parameters, their types and its
documentation are the coroutine function's own (type checkers and ``inspect.signature`` see
them), and a parameter added to one is never missing from the other.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


def blocking(
    coroutine_function: Callable[P, Coroutine[Any, Any, T]],
    runner: Callable[[Coroutine[Any, Any, T]], T] = asyncio.run,
) -> Callable[P, T]:
    """A function of the same arguments that runs the coroutine to its end and returns its result.

    Args:
        coroutine_function: The ``async def`` function (or method: the twin binds like one).
        runner: Runs one coroutine and returns its result, blocking the calling thread
            (default: `asyncio.run`, a fresh event loop per call).
    """

    @functools.wraps(coroutine_function)
    def call(*args: P.args, **kwargs: P.kwargs) -> T:
        return runner(coroutine_function(*args, **kwargs))

    return call
