"""The JSON text of plain records, written by pydantic's serializer in ``json.dumps``'s layout.

Most tool results are database records (an order, a reservation): pydantic models whose fields
hold only JSON's own types. ``json.dumps(record.model_dump(), default=str)`` is the text the
calling side must receive (`tau_env.serialization`), and it is the costliest part of such a
call. pydantic's serializer (compiled) writes the same JSON in a fraction of the instructions,
in another layout; `plain_text` turns that layout into ``json.dumps``'s and returns the text
only when it is certainly the same:

* only models whose dump can hold nothing but ``str``, ``int``, ``float``, ``bool``, ``None``,
  lists and dicts with ``str`` keys (decided once per class from its schema; no custom
  serializers, computed fields, extra fields or ``Any``);
* written with ``warnings="error"``, so a field holding a value of another type than declared
  (assigned without validation) is caught, not written differently;
* text that ``json.dumps`` would write otherwise is refused: non-ASCII characters and DEL
  (which it escapes), and floats below 1e-4 (``1e-05`` against ``0.00001``, ``1e-06`` against
  ``1e-6``).

A record is written straight from the model when no float in it can be written as ``null``:
its schema holds no floats, or every model in it writes infinities and NaN as ``json.dumps``
does (``ser_json_inf_nan="constants"``, as the airline and retail records do). Otherwise it is
dumped to Python first and the dump written (the generic writer writes them as constants).

Anything refused goes the usual way; the result is the same text either way.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, NamedTuple

from pydantic import BaseModel, TypeAdapter
from pydantic_core import PydanticSerializationError, SchemaSerializer, to_json

__all__ = ["plain_json", "plain_model", "plain_text"]

_LEAVES = frozenset({"str", "int", "float", "bool", "none"})
_LITERAL_TYPES = (str, int, bool, type(None))
_PASS_THROUGH = frozenset({"nullable", "default", "function-before", "function-after"})
_NULL_INF_NAN = "model writing infinities and NaN as null"  # a "leaf" of `_plain_schema`


class _Plan(NamedTuple):
    """How `plain_text` writes the records of one plain class.

    Attributes:
        floats: Its records may hold floats (their text is checked for small ones).
        direct: Written straight from the model; else dumped first. Straight from the model
            only when no float can be written as ``null`` (every model in the schema writes
            infinities and NaN as ``json.dumps`` does: ``ser_json_inf_nan="constants"``).
    """

    floats: bool
    direct: bool


_PLANS: dict[type[BaseModel], _Plan | None] = {}  # None: not plain


def _plan(cls: type[BaseModel]) -> _Plan | None:
    """How `plain_text` writes records of `cls`, or None when it may not (decided once)."""
    try:
        return _PLANS[cls]
    except KeyError:
        pass
    plan: _Plan | None = None
    try:
        leaves: set[str] = set()
        if (
            cls.model_dump is BaseModel.model_dump
            and _plain_schema(cls.__pydantic_core_schema__, {}, set(), leaves)
            and _strict_dumps()
        ):
            floats = "float" in leaves
            plan = _Plan(floats, direct=not floats or _NULL_INF_NAN not in leaves)
    except (KeyError, TypeError, AttributeError):  # an unexpected or unbuilt schema
        plan = None
    _PLANS[cls] = plan
    return plan


def plain_model(cls: type[BaseModel]) -> bool:
    """True when records of `cls` are plain and may hold floats (decided once per class).

    Their dumps hold only JSON's own types, floats among them; `plain_json` writes them.
    """
    plan = _plan(cls)
    return plan is not None and plan.floats


@functools.cache
def _strict_dumps() -> bool:
    """True when pydantic's dump and JSON writer raise on a value of an undeclared type."""

    class Probe(BaseModel):
        text: str

    probe = Probe.model_construct(text=1)  # type: ignore[arg-type]
    serializer = Probe.__pydantic_serializer__
    return _raises(lambda: probe.model_dump(warnings="error")) and _raises(
        lambda: serializer.to_json(probe, warnings="error")
    )


def _raises(write: Callable[[], object]) -> bool:
    try:
        write()
    except PydanticSerializationError:
        return True
    except (TypeError, ValueError):  # a pydantic without the option
        return False
    return False


def plain_text(record: BaseModel) -> str | None:
    """``json.dumps(record.model_dump(), default=str)`` of a plain record, or None.

    None: the record's class is not plain, or the fast path does not apply to this record (a
    value of an undeclared type, text written differently); the caller dumps it the usual way.
    """
    cls = type(record)
    plan = _plan(cls)
    if plan is None:
        return None
    try:
        if plan.direct:
            text = cls.__pydantic_serializer__.to_json(record, indent=0, warnings="error")
        else:  # dumped first: the generic writer writes infinities and NaN as json.dumps
            text = to_json(record.model_dump(warnings="error"), indent=0)
    except PydanticSerializationError:  # an undeclared type, or a string UTF-8 cannot hold
        return None
    return _json_dumps_layout(text.decode(), plan.floats)


def plain_json(value: BaseModel | list[BaseModel]) -> str | None:
    """``json.dumps(dump, default=str)`` of a plain record (or a list of them), or None.

    None: the fast path does not apply (a value of an undeclared type); the caller dumps the
    value the usual way. A list of records all of one class written straight from the model
    is written in one go; any other list record by record.
    """
    if isinstance(value, BaseModel):
        return plain_text(value)
    if value:
        cls = type(value[0])
        plan = _plan(cls)
        if plan is not None and plan.direct and all(type(record) is cls for record in value):
            try:
                written = _list_serializer(cls).to_json(value, indent=0, warnings="error")
            except PydanticSerializationError:
                return None
            return _json_dumps_layout(written.decode(), plan.floats)
    texts = []
    for record in value:
        text = plain_text(record)
        if text is None:
            return None
        texts.append(text)
    return "[" + ", ".join(texts) + "]"  # json.dumps's layout of a list


@functools.cache
def _list_serializer(cls: type[BaseModel]) -> SchemaSerializer:
    """The writer of a list of `cls` records (each written by the class's own writer)."""
    return TypeAdapter(list[cls]).serializer  # type: ignore[valid-type]


def _json_dumps_layout(text: str, floats: bool) -> str | None:
    """Text written by pydantic with ``indent=0``, laid out as ``json.dumps`` writes it; or None.

    None when ``json.dumps`` would write the same values otherwise: non-ASCII characters and
    DEL (escaped by it), and, when the record may hold floats, floats below 1e-4 ("0.0000..."
    in the 1e-5 decade, "e-" below; found in a string value, such as "e-mail", they only send
    the record the usual way).
    """
    if not text.isascii() or "\x7f" in text:
        return None
    if floats and ("e-" in text or "0.0000" in text):
        return None
    # Indented by 0, the layout differs from json.dumps's by its line breaks alone: after
    # each item separator (where json.dumps has a space) and inside brackets (nothing). No line
    # break can be inside a string: JSON escapes it.
    return text.replace(",\n", ", ").replace("\n", "")


def _plain_schema(
    schema: Any, definitions: dict[str, Any], seen: set[str], leaves: set[str]
) -> bool:
    """True when values serialized by this core schema (python mode) are JSON's own types.

    The leaf types met are added to `leaves`, and `_NULL_INF_NAN` when a model writes
    infinities and NaN as ``null``.
    """
    if "serialization" in schema:  # a custom serializer may return anything
        return False
    kind = schema["type"]
    if kind in _LEAVES:
        leaves.add(kind)
        return True
    if kind == "literal":
        return all(type(expected) in _LITERAL_TYPES for expected in schema["expected"])
    if kind in _PASS_THROUGH:
        return _plain_schema(schema["schema"], definitions, seen, leaves)
    if kind == "list":
        items = schema.get("items_schema")
        return items is not None and _plain_schema(items, definitions, seen, leaves)
    if kind == "dict":
        keys, values = schema.get("keys_schema"), schema.get("values_schema")
        return (
            keys is not None
            and values is not None
            and _str_schema(keys)
            and _plain_schema(values, definitions, seen, leaves)
        )
    if kind == "union":
        return all(
            _plain_schema(c[0] if isinstance(c, tuple) else c, definitions, seen, leaves)
            for c in schema["choices"]
        )
    if kind == "tagged-union":
        return all(_plain_schema(c, definitions, seen, leaves) for c in schema["choices"].values())
    if kind == "model":
        config = schema.get("config") or {}
        if schema.get("root_model") or config.get("extra_fields_behavior") == "allow":
            return False
        if config.get("ser_json_inf_nan") != "constants":
            leaves.add(_NULL_INF_NAN)
        return _plain_schema(schema["schema"], definitions, seen, leaves)
    if kind == "model-fields":
        if schema.get("computed_fields") or schema.get("extras_schema") is not None:
            return False
        return all(
            _plain_schema(field["schema"], definitions, seen, leaves)
            for field in schema["fields"].values()
        )
    if kind == "definitions":
        for definition in schema["definitions"]:
            definitions[definition["ref"]] = definition
        return _plain_schema(schema["schema"], definitions, seen, leaves)
    if kind == "definition-ref":
        ref = schema["schema_ref"]
        if ref in seen:  # recursive: its own check is under way
            return True
        seen.add(ref)
        return _plain_schema(definitions[ref], definitions, seen, leaves)
    return False  # anything else (dates, enums, Any, sets, ...) is written by default=str


def _str_schema(schema: Any) -> bool:
    """True for the keys ``json.dumps`` writes as they are: ``str`` or ``str`` literals."""
    if "serialization" in schema:
        return False
    if schema["type"] == "str":
        return True
    return schema["type"] == "literal" and all(type(e) is str for e in schema["expected"])
