r"""Tool-result serialization, byte-compatible with the reference implementation.

Recorded trajectories compare tool outputs as strings, so the conversion of a tool's return
value to text must match the reference exactly (spec §2.2, ``to_json_str``):

* a ``str`` passes through unchanged (no JSON quoting);
* anything else is converted recursively and dumped with ``json.dumps(..., default=str)``:
  pydantic models become their ``model_dump()`` (numbers inside stay numbers), ``None`` stays
  ``null``, bare ``int``/``float``/``bool`` become ``str(x)`` (so ``{"a": 1}`` gives
  ``{"a": "1"}`` and a top-level ``True`` gives ``"\\"True\\""``), lists and tuples become
  lists, dicts keep their keys, dates become ISO strings.

A tool's result reaches the calling side through `committed_json_str`, which keeps the text of
each record it writes for as long as the record lives: a committed record never changes, and
the same records are read again and again (every episode of a task reads the same orders).
"""

from __future__ import annotations

import datetime as dt
import json
import weakref
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel
from pydantic_core import PydanticSerializationError

from tau_env.plain_json import plain_json, plain_text

__all__ = ["KEPT_TYPES", "committed_json_str", "kept_entry", "to_json_str"]

# isinstance on a tuple of classes is faster than on a union (same meaning).
_NUMBERS = (bool, int, float)
_SEQUENCES = (list, tuple)
_DATES = (dt.date, dt.datetime)


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
        text = plain_text(value)
        return json.dumps(value.model_dump(), default=str) if text is None else text
    if isinstance(value, _SEQUENCES) and value and all(isinstance(v, BaseModel) for v in value):
        text = plain_json(list(value))  # a list of records (search results)
        if text is not None:
            return text
    return json.dumps(_convert(value), default=str)


def committed_json_str(value: Any) -> str:
    """`to_json_str` of a value that will never change again, a record's text kept with it.

    For a tool's result once its transaction is committed: a committed record is never
    changed in place (a later change copies it first, `tau_env.state.table`), so its text is
    the same every time it is read, in this episode and in every other that shares it. The
    text of a record is kept for as long as the record lives and is found by the record's
    identity; texts written with a warning (a value of an undeclared type) are not kept, so
    every such call warns again.
    """
    if type(value) is str:  # the usual result besides records
        return value
    if isinstance(value, BaseModel):
        kept = _KEPT.get(id(value))
        if kept is not None and kept() is value:
            return kept.text
        return _record_text(value)
    return to_json_str(value)


class _KeptText(weakref.ref[BaseModel]):
    """A weak reference to a record that holds the record's text and its key in `_KEPT`."""

    __slots__ = ("key", "text")
    key: int
    text: str


_KEPT: dict[int, _KeptText] = {}  # id(record) -> its text, while the record lives


KEPT_TYPES: set[type[BaseModel]] = set()
"""The record classes `committed_json_str` has kept a text of (read-only outside this module).

Records of other classes have no kept text: `kept_entry` need not be asked for them.
"""

kept_entry: Callable[[int], _KeptText | None] = _KEPT.get
"""``id(record)`` -> the entry of the text `committed_json_str` kept for it, or None.

The entry is a weak reference to the record with the text as ``.text``; it belongs to `record`
only when calling it gives `record` back (``entry() is record``). Never writes a text. Two
committed records with equal kept texts have equal dumps as the reference hash sees them: the
text is ``json.dumps(model_dump(), default=str)``, so the sorted text the hash is taken of is
equal too (grading compares records this way first). A bound ``dict.get``, not a function: it
is called for every compared record of a class in `KEPT_TYPES`, kept or not.
"""


def _forget(kept: _KeptText, entries: dict[int, _KeptText] = _KEPT) -> None:
    """Drop the entry of a record that died (before its id can be reused).

    `entries` is `_KEPT`, bound when the function is made: records still alive at interpreter
    exit die after the module's globals are cleared to None, and their callbacks run then.
    """
    if entries.get(kept.key) is kept:
        del entries[kept.key]


def _record_text(record: BaseModel) -> str:
    """The text of a record, kept when it was written without a warning."""
    text = plain_text(record)
    if text is None:
        try:
            dump = record.model_dump(warnings="error")
        except PydanticSerializationError:  # warns, as `to_json_str` does; not kept
            return json.dumps(record.model_dump(), default=str)
        text = json.dumps(dump, default=str)
    try:
        kept = _KeptText(record, _forget)
    except TypeError:  # a model class without weak references: nothing kept
        return text
    kept.key, kept.text = id(record), text
    _KEPT[kept.key] = kept
    KEPT_TYPES.add(type(record))
    return text
