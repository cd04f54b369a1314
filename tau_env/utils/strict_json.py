r"""Reading JSON that someone else wrote, with limits that keep every later step safe.

Python's `json` module reads more than the rest of a program can take: ``NaN`` and
``Infinity`` (which JSON does not have, and which break arithmetic and JSON written back),
integers of thousands of digits (which SQLite cannot store and ``int()`` refuses past 4,300
digits), nesting deep enough to exhaust the interpreter's recursion limit, and ``\ud800``
escapes that decode to lone surrogates (text that cannot be written as UTF-8). `read_json`
refuses all of these with one line saying what and where, before anything is done with the
value, so a caller can refuse a file or request whole.
"""

from __future__ import annotations

import json
import math
from typing import Any

from tau_env.utils.json_tree import map_leaves

__all__ = ["MAX_DEPTH", "MAX_INTEGER", "UnsafeJson", "finite_only", "read_json"]

MAX_DEPTH = 100
"""Deepest nesting of arrays and objects accepted (results files nest about 8 levels)."""

MAX_INTEGER = 2**63 - 1
"""Largest integer magnitude accepted: SQLite's INTEGER (signed 64 bits)."""

_MAX_DIGITS = len(str(MAX_INTEGER))


class UnsafeJson(ValueError):
    """JSON text that is malformed, or well-formed but outside the limits above."""


def read_json(text: str | bytes) -> Any:
    """The value of JSON `text`, refused when it is outside what tau_env can store and show.

    Raises:
        UnsafeJson: Not UTF-8, not JSON, a non-finite number (``NaN``, ``Infinity``, ``1e400``),
            an integer beyond `MAX_INTEGER`, nesting deeper than `MAX_DEPTH`, or a lone
            surrogate in a string or key; the message names the first problem and its place.
    """
    try:
        value = json.loads(
            text,
            parse_constant=_refuse_constant,
            parse_float=_finite_float,
            parse_int=_bounded_int,
        )
    except UnicodeDecodeError:
        raise UnsafeJson("not UTF-8 text") from None
    except RecursionError:
        raise UnsafeJson(f"nested deeper than {MAX_DEPTH} levels") from None
    except json.JSONDecodeError as error:
        raise UnsafeJson(f"{error.msg} at line {error.lineno} column {error.colno}") from None
    _check_tree(value)
    return value


def finite_only(value: Any) -> Any:
    """`value` (JSON-like data) with every NaN or infinite float replaced by None.

    For output that must be JSON (a report, a page's data): a non-finite number, which only a
    corrupted or hand-edited store can hold, is written as ``null`` and shown as "n/a".
    Returns `value` itself when it holds none.
    """
    return map_leaves(value, _finite_or_none)


def _finite_or_none(leaf: Any) -> Any:
    return None if isinstance(leaf, float) and not math.isfinite(leaf) else leaf


def _refuse_constant(name: str) -> Any:
    raise UnsafeJson(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise UnsafeJson(f"the number {_shortened(text)} is too large")
    return value


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > _MAX_DIGITS or abs(value := int(text)) > MAX_INTEGER:
        raise UnsafeJson(f"the integer {_shortened(text)} is beyond {MAX_INTEGER}")
    return value


def _shortened(text: str, keep: int = 24) -> str:
    """`text` cut to `keep` characters, any lone surrogate written as its escape."""
    shown = text if len(text) <= keep else f"{text[:keep]}... ({len(text)} characters)"
    return shown.encode("utf-8", "backslashreplace").decode("utf-8")


def _check_tree(value: Any) -> None:
    """Refuse nesting past `MAX_DEPTH` and strings or keys that are not valid text."""
    stack: list[tuple[Any, int, str]] = [(value, 0, "")]
    while stack:
        item, depth, place = stack.pop()
        if isinstance(item, str):
            _check_text(item, place)
        elif isinstance(item, list | dict):
            if depth >= MAX_DEPTH:
                raise UnsafeJson(f"nested deeper than {MAX_DEPTH} levels")
            if isinstance(item, list):
                stack.extend((x, depth + 1, f"{place}[{i}]") for i, x in enumerate(item))
            else:
                for key, x in item.items():
                    _check_text(key, f"{place}.{_shortened(key)} (a key)")
                    stack.append((x, depth + 1, f"{place}.{_shortened(key)}"))


def _check_text(text: str, place: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        where = place.lstrip(".") or "the top"
        raise UnsafeJson(f"a lone surrogate (an invalid \\u escape) in {where}") from None
