"""JSON the banking tools read and write: call arguments, seeds of ids, indented echoes.

Decoding arguments with integers as floats, and encoding with sorted keys, go through one
decoder and one encoder made once: ``json.loads(text, parse_int=float)`` and
``json.dumps(value, sort_keys=True)`` build a new one per call, which costs more than the
decoding itself for the short texts of a tool call. The results are the same.

``json.dumps(value, indent=2)`` for the flat JSON banking results print:

Results echo a call's arguments as indented JSON, as the reference does, and list debit cards
the same way. With an indent, ``json.dumps`` takes its pure-Python encoder, which costs more
than the rest of such a call. An object whose keys are strings and whose values are all
strings, numbers, booleans or None (the usual arguments, a card record), or a list of such
objects, is laid out here directly, character for character as ``json.dumps`` lays it out.
Anything else (nested values, keys that are not strings, other types) is left to
``json.dumps``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from json.encoder import encode_basestring_ascii
from typing import Any

__all__ = ["indented", "loads_numbers_as_floats", "sorted_json"]

_SPECIAL_FLOATS = {math.inf: "Infinity", -math.inf: "-Infinity"}

_FLOAT_DECODER = json.JSONDecoder(parse_int=float)
_SORTED_ENCODER = json.JSONEncoder(sort_keys=True)
# The decoder's own scanner (an attribute typeshed does not declare).
_SCAN_ONCE: Callable[[str, int], tuple[Any, int]] = _FLOAT_DECODER.scan_once  # type: ignore[attr-defined]


def loads_numbers_as_floats(text: str) -> Any:
    """``json.loads(text, parse_int=float)`` (same value, same `json.JSONDecodeError`).

    The usual text, an object with nothing around it, goes to the decoder's scanner directly:
    ``decode`` would skip no blanks either side and raise the scanner's own errors, so only
    its two Python calls are saved. A value that is not text (an agent sending the arguments
    as an object) raises `json.loads`'s `TypeError`.
    """
    if type(text) is not str:
        return json.loads(text, parse_int=float)  # its TypeError for anything but text
    if text[:1] == "{" and text[-1:] == "}":
        value, end = _SCAN_ONCE(text, 0)  # a text starting with "{" never stops the scan
        if end == len(text):
            return value
    if text.startswith("\ufeff"):  # json.loads refuses a byte order mark; its error, then
        return json.loads(text, parse_int=float)
    return _FLOAT_DECODER.decode(text)


def sorted_json(value: Any) -> str:
    """``json.dumps(value, sort_keys=True)``, the same text."""
    return _SORTED_ENCODER.encode(value)


def indented(value: Any) -> str:
    """``json.dumps(value, indent=2)``, the same text, faster for flat objects and lists of them."""
    kind = type(value)
    if kind is dict:
        text = _flat_object(value, "\n")
    elif kind is list and value:
        text = _flat_list(value)
    else:
        text = None
    return json.dumps(value, indent=2) if text is None else text


def _flat_list(value: list[Any]) -> str | None:
    """A list of flat objects as ``json.dumps(indent=2)`` writes it; None if one is not flat."""
    members = []
    for item in value:
        text = _flat_object(item, "\n  ") if type(item) is dict else None
        if text is None:
            return None
        members.append(text)
    return "[\n  " + ",\n  ".join(members) + "\n]"


def _flat_object(value: dict[Any, Any], margin: str) -> str | None:
    """A flat object as ``json.dumps(indent=2)`` writes it after `margin`, or None.

    `margin` is a line break and the object's indent. None when a key is not a string or a
    value is not a scalar.
    """
    if not value:
        return "{}"
    lines = []
    for key, item in value.items():
        text = _scalar(item) if type(key) is str else None
        if text is None:
            return None
        lines.append(f"{encode_basestring_ascii(key)}: {text}")
    inner = margin + "  "
    return "{" + inner + ("," + inner).join(lines) + margin + "}"


def _scalar(value: Any) -> str | None:
    """How ``json.dumps`` writes a string, number, boolean or None; None for anything else."""
    kind = type(value)
    if kind is str:
        return encode_basestring_ascii(value)
    if kind is float:
        if math.isfinite(value):
            return float.__repr__(value)
        return "NaN" if value != value else _SPECIAL_FLOATS[value]
    if kind is int:
        return int.__repr__(value)
    if kind is bool:
        return "true" if value else "false"
    if value is None:
        return "null"
    return None
