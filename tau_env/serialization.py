r"""Tool-result serialization, byte-compatible with the reference implementation.

Recorded trajectories compare tool outputs as strings, so the conversion of a tool's return
value to text must match the reference exactly (spec §2.2, ``to_json_str``):

* a ``str`` passes through unchanged (no JSON quoting);
* anything else is converted recursively and dumped with ``json.dumps(..., default=str)``:
  pydantic models become their ``model_dump()`` (numbers inside stay numbers), ``None`` stays
  ``null``, bare ``int``/``float``/``bool`` become ``str(x)`` (so ``{"a": 1}`` gives
  ``{"a": "1"}`` and a top-level ``True`` gives ``"\\"True\\""``), lists and tuples become
  lists, dicts keep their keys, dates become ISO strings.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from pydantic import BaseModel

__all__ = ["to_json_str"]


def _convert(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump()
    if value is None:
        return None
    if isinstance(value, bool | int | float):
        return str(value)
    if isinstance(value, list | tuple):
        return [_convert(item) for item in value]
    if isinstance(value, dict):
        return {key: _convert(item) for key, item in value.items()}
    if isinstance(value, dt.date | dt.datetime):
        return value.isoformat()
    return value


def to_json_str(value: Any) -> str:
    """Serialize a tool's return value to the string the calling side receives.

    Args:
        value: What the tool returned.

    Returns:
        The value itself if it is a string, otherwise its JSON text under the reference's rules.
    """
    if isinstance(value, str):
        return value
    return json.dumps(_convert(value), default=str)
