"""The JSON text of plain records, written by pydantic's serializer in ``json.dumps``'s layout.

Most tool results are database records (an order, a product): pydantic models whose fields
hold only JSON's own types. ``json.dumps(record.model_dump(), default=str)`` is the text the
calling side must receive (`tau_env.serialization`), and it is the costliest part of such a
call when the record holds floats (Python's float repr costs more than the rest of the
encoding). pydantic's serializer (compiled) writes the same JSON in half the instructions, in
another layout; `plain_json` turns that layout into ``json.dumps``'s and returns the text only
when it is certainly the same:

* only models whose dump can hold nothing but ``str``, ``int``, ``float``, ``bool``, ``None``,
  lists and dicts with ``str`` keys (`plain_model`: decided once per class from its schema;
  no custom serializers, computed fields, extra fields or ``Any``), and some floats (without
  them, the checks and the change of layout cost what the faster encoding saves);
* dumped with ``warnings="error"``, so a field holding a value of another type than declared
  (assigned without validation) is caught, not written differently;
* text that ``json.dumps`` would write otherwise is refused: non-ASCII characters and DEL
  (which it escapes), and floats below 1e-4 (``1e-05`` against ``0.00001``, ``1e-06`` against
  ``1e-6``).

Anything refused goes the usual way; the result is the same text either way.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from pydantic_core import PydanticSerializationError, to_json

__all__ = ["plain_json", "plain_model"]

_LEAVES = frozenset({"str", "int", "float", "bool", "none"})
_LITERAL_TYPES = (str, int, bool, type(None))
_PASS_THROUGH = frozenset({"nullable", "default", "function-before", "function-after"})

# Written differently by the two serializers (see the module docstring): DEL, and floats below
# 1e-4 ("0.0000..." in the 1e-5 decade, "e-" below). Found in a string value ("e-mail"), they
# only send the record the usual way.
_REFUSED = (b"\x7f", b"e-", b"0.0000")

_PLAIN: dict[type[BaseModel], bool] = {}


def plain_model(cls: type[BaseModel]) -> bool:
    """True when `plain_json` may write records of `cls` (decided once per class).

    Their dumps hold only JSON's own types, floats among them.
    """
    known = _PLAIN.get(cls)
    if known is None:
        try:
            leaves: set[str] = set()
            known = (
                cls.model_dump is BaseModel.model_dump
                and _plain_schema(cls.__pydantic_core_schema__, {}, set(), leaves)
                and "float" in leaves
                and _strict_dumps()
            )
        except (KeyError, TypeError, AttributeError):  # an unexpected or unbuilt schema
            known = False
        _PLAIN[cls] = known
    return known


def _strict_dumps() -> bool:
    """True when ``model_dump(warnings="error")`` raises on a value of an undeclared type."""

    class Probe(BaseModel):
        text: str

    try:
        Probe.model_construct(text=1).model_dump(warnings="error")  # type: ignore[arg-type]
    except PydanticSerializationError:
        return True
    except (TypeError, ValueError):  # a pydantic without the option
        return False
    return False


def plain_json(value: BaseModel | list[BaseModel]) -> str | None:
    """``json.dumps(dump, default=str)`` of a plain record (or a list of them), or None.

    None: the fast path does not apply (a value of an undeclared type); the caller dumps the
    value the usual way. Each record must be of a `plain_model` class.
    """
    try:
        if isinstance(value, BaseModel):
            dumped: Any = value.model_dump(warnings="error")
        else:
            dumped = [item.model_dump(warnings="error") for item in value]
        text = to_json(dumped, indent=0)
    except PydanticSerializationError:  # an undeclared type, or a string UTF-8 cannot hold
        return None
    if not text.isascii() or any(refused in text for refused in _REFUSED):
        return None
    # Indented by 0, the layout differs from json.dumps's by its line breaks alone: after
    # each item separator (where json.dumps has a space) and inside brackets (nothing). No line
    # break can be inside a string: JSON escapes it.
    return text.decode().replace(",\n", ", ").replace("\n", "")


def _plain_schema(
    schema: Any, definitions: dict[str, Any], seen: set[str], leaves: set[str]
) -> bool:
    """True when values serialized by this core schema (python mode) are JSON's own types.

    The leaf types met are added to `leaves`.
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
