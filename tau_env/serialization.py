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
import json.encoder
from json.encoder import encode_basestring_ascii
from typing import Any

from pydantic import BaseModel

from tau_env.plain_json import plain_json, plain_model

__all__ = ["to_json_str"]

# isinstance on a tuple of classes is faster than on a union (same meaning).
_NUMBERS = (bool, int, float)
_SEQUENCES = (list, tuple)
_DATES = (dt.date, dt.datetime)
# The C encoder json.dumps builds (None on a Python without json's C accelerator).
_MAKE_ENCODER: Any = getattr(json.encoder, "c_make_encoder", None)


def _convert(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump()
    if value is None:
        return None
    if isinstance(value, _NUMBERS):
        return str(value)
    if isinstance(value, _SEQUENCES):
        return [_convert(item) for item in value]
    if isinstance(value, dict):
        return {key: _convert(item) for key, item in value.items()}
    if isinstance(value, _DATES):
        return value.isoformat()
    return value


def _dumps(value: Any) -> str:
    """``json.dumps(value, default=str)``, without building a `json.JSONEncoder` per call.

    The C encoder that ``json.dumps`` would build, with the same settings (circular check,
    ``default=str``, ASCII escapes, ``", "`` and ``": "``, NaN allowed), made here directly:
    the same text, without the encoder object's Python set-up around it (a tenth of a
    result's serialization). A fresh encoder per call, as ``json.dumps`` makes, keeps its
    circular-reference record private to the call.
    """
    if _MAKE_ENCODER is None or isinstance(value, str):  # pure-Python json; or a bare string
        return json.dumps(value, default=str)
    encoder = _MAKE_ENCODER({}, str, encode_basestring_ascii, None, ": ", ", ", False, False, True)
    return "".join(encoder(value, 0))


def to_json_str(value: Any) -> str:
    """Serialize a tool's return value to the string the calling side receives.

    Args:
        value: What the tool returned.

    Returns:
        The value itself if it is a string, otherwise its JSON text under the reference's rules.
    """
    if isinstance(value, str):
        return value
    if isinstance(value, BaseModel):  # the usual result: one record
        if plain_model(type(value)) and (text := plain_json(value)) is not None:
            return text
        return _dumps(value.model_dump())
    if (
        isinstance(value, _SEQUENCES)
        and value
        and all(isinstance(item, BaseModel) and plain_model(type(item)) for item in value)
        and (text := plain_json(list(value))) is not None
    ):  # a list of records (search results)
        return text
    return _dumps(_convert(value))
