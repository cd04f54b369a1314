r"""JSON text holding lone surrogates, written as UTF-8 without losing them.

A lone surrogate (``"\ud83d"``, half of an emoji) is what a JSON ``\ud83d`` escape in a model's
reply decodes to. Python strings may hold one; UTF-8 cannot, so ``.encode("utf-8")`` of JSON
text that quotes such a string fails. JSON itself can: the same escape, ``\ud83d``, stands for
it, so JSON text stays exact when its lone surrogates are written as escapes (in JSON text they
only ever occur inside strings).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from tau_env.utils.json_tree import map_leaves

__all__ = [
    "escape_surrogates",
    "has_surrogate",
    "json_utf8",
    "replace_surrogates",
    "without_surrogates",
]

_SURROGATE = re.compile("[\ud800-\udfff]")


def escape_surrogates(json_text: str) -> str:
    r"""`json_text` with every surrogate code point written as JSON's ``\uXXXX`` escape."""
    return _SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", json_text)


def without_surrogates(text: str) -> str:
    """`text` with every surrogate code point replaced by U+FFFD (itself when it has none)."""
    return _SURROGATE.sub("\ufffd", text) if _SURROGATE.search(text) else text


def json_utf8(json_text: str) -> bytes:
    """JSON text as UTF-8 bytes; lone surrogates (rare) become escapes meaning the same."""
    try:
        return json_text.encode("utf-8")
    except UnicodeEncodeError:
        return escape_surrogates(json_text).encode("utf-8")


def has_surrogate(value: Any) -> bool:
    """True when a string of `value` (JSON-like data, keys included) holds a surrogate.

    For text that must go out as UTF-8 and cannot be escaped on the way (a server's replies):
    such a value is refused where it comes in. ASCII strings are passed over at C speed.
    """
    if isinstance(value, str):
        return not value.isascii() and _SURROGATE.search(value) is not None
    if isinstance(value, Mapping):
        return any(has_surrogate(key) or has_surrogate(item) for key, item in value.items())
    if isinstance(value, list | tuple):
        return any(has_surrogate(item) for item in value)
    return False


def replace_surrogates(value: Any) -> Any:
    """`value` (JSON-like data) with every surrogate in its strings replaced by U+FFFD.

    For a request that a library serialises as UTF-8 itself (litellm's), where no escape can
    be slipped in: the provider gets the replacement character where half an emoji was. Returns
    `value` itself when it holds no surrogate (the usual case: nothing is copied).
    """
    return map_leaves(
        value, lambda leaf: without_surrogates(leaf) if isinstance(leaf, str) else leaf
    )
