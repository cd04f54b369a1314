"""Values read from the process environment, recomputed only when the environment changes.

Some settings come from environment variables on every write or request: the secrets to
redact before a record is stored, the proxies a model call goes through. Scanning
``os.environ`` decodes every variable (tens of microseconds), which is a visible share of a
model call. `environ_cached` keeps a function's results until the environment differs from the
copy taken when they were computed: a comparison of two small dicts, well under a microsecond.
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable, Hashable, Mapping
from typing import Any, Generic, ParamSpec, TypeVar

__all__ = ["EnvironCached", "environ_cached"]

T = TypeVar("T")
P = ParamSpec("P")


def _raw_environ() -> Mapping[Any, Any]:
    """The environment as CPython stores it (undecoded); a decoded copy elsewhere."""
    raw = getattr(os.environ, "_data", None)
    return raw if isinstance(raw, dict) else dict(os.environ)


class EnvironCached(Generic[P, T]):
    """`function` with its results kept per arguments while the environment is unchanged.

    Args:
        function: Reads the environment (and files it names); its arguments must be hashable.
    """

    def __init__(self, function: Callable[P, T]) -> None:
        functools.update_wrapper(self, function)
        self._function = function
        self._lock = threading.Lock()
        self._seen: dict[Any, Any] | None = None
        self._results: dict[tuple[Hashable, ...], T] = {}

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> T:
        """The function's result for these arguments (computed again if the environment moved)."""
        key = (*args, *sorted(kwargs.items()))
        raw = _raw_environ()
        with self._lock:
            if raw != self._seen:
                self._results.clear()
                self._seen = dict(raw)
            elif key in self._results:
                return self._results[key]
        value = self._function(*args, **kwargs)
        with self._lock:
            self._results[key] = value
        return value

    def cache_clear(self) -> None:
        """Forget every result (a file the function reads changed, say)."""
        with self._lock:
            self._results.clear()
            self._seen = None


def environ_cached(function: Callable[P, T]) -> EnvironCached[P, T]:
    """Decorator: see `EnvironCached`."""
    return EnvironCached(function)
