"""JSON the banking tools read and write: call arguments, seeds of ids, indented echoes.

Decoding arguments with integers as floats, and encoding with sorted keys, go through one
decoder and one encoder made once: ``json.loads(text, parse_int=float)`` and
``json.dumps(value, sort_keys=True)`` build a new one per call, which costs more than the
decoding itself for the short texts of a tool call. The results are the same.

``json.dumps(value, indent=2)`` for the flat JSON objects banking results print:

Results echo a call's arguments as indented JSON, as the reference does. With an indent,
``json.dumps`` takes its pure-Python encoder, which costs more than the rest of such a call;
an object whose values are all strings, numbers, booleans or None (the usual arguments) is
laid out here directly, character for character as ``json.dumps`` lays it out. Anything else
(nested values, keys that are not strings, other types) is left to ``json.dumps``.
"""

from __future__ import annotations

import json
import math
from json.encoder import encode_basestring_ascii
from typing import Any

__all__ = ["indented", "loads_numbers_as_floats", "sorted_json"]

_SPECIAL_FLOATS = {math.inf: "Infinity", -math.inf: "-Infinity"}

_FLOAT_DECODER = json.JSONDecoder(parse_int=float)
_SORTED_ENCODER = json.JSONEncoder(sort_keys=True)


def loads_numbers_as_floats(text: str) -> Any:
    """``json.loads(text, parse_int=float)`` (same value, same `json.JSONDecodeError`)."""
    if text.startswith("\ufeff"):  # json.loads refuses a byte order mark; its error, then
        return json.loads(text, parse_int=float)
    return _FLOAT_DECODER.decode(text)


def sorted_json(value: Any) -> str:
    """``json.dumps(value, sort_keys=True)``, the same text."""
    return _SORTED_ENCODER.encode(value)


def indented(value: Any) -> str:
    """``json.dumps(value, indent=2)``, the same text, faster for a flat object."""
    if type(value) is not dict or not value:
        return json.dumps(value, indent=2)
    lines = []
    for key, item in value.items():
        text = _scalar(item) if type(key) is str else None
        if text is None:
            return json.dumps(value, indent=2)
        lines.append(f"{encode_basestring_ascii(key)}: {text}")
    return "{\n  " + ",\n  ".join(lines) + "\n}"


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
