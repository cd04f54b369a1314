"""Deep copies of records, specialised once per record type.

A tool that changes a record first copies it (`Table.edit`), so copying is on the path of
every write. Records in a table were validated when the data was loaded, and every copy is
made from such a record, so a copy needs no validation: immutable values (strings, numbers,
dates, literals) are shared, containers and nested models are copied. The copier of a type is
worked out once from its validation schema; it gives what ``model_validate(model_dump())``
gives (the reference rule for a copy, kept as `validated_copy`), including
``model_fields_set`` (every field), at a fraction of the cost.

Types whose schema holds anything else (``Any``, custom validators, extra fields, private
attributes, ``model_post_init``...) are copied with `validated_copy`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel

__all__ = ["copier_for", "copy_record", "top_copier_for", "validated_copy"]

R = TypeVar("R", bound=BaseModel)
Copier = Callable[[Any], Any]

_SCALARS = frozenset(
    {
        "str", "int", "float", "bool", "none", "literal", "enum", "date", "datetime", "time",
        "timedelta", "decimal", "uuid", "bytes",
    }
)  # fmt: skip
_SHARE = None  # a field copier meaning: immutable, share the value


class _Unsupported(Exception):
    """The schema holds something a specialised copy cannot reproduce exactly."""


class _TypeMismatch(Exception):
    """A nested value is not exactly of its declared model type (a subclass instance)."""


def validated_copy(record: R) -> R:
    """A deep copy by dump and validation (the general rule; ~3x faster than deepcopy)."""
    cls = type(record)
    return cls.__pydantic_validator__.validate_python(cls.__pydantic_serializer__.to_python(record))  # type: ignore[no-any-return]


def copy_record(record: R) -> R:
    """An independent deep copy of a record, equal to `validated_copy` (fields set included)."""
    copier = copier_for(type(record))
    if copier is not None:
        try:
            return copier(record)  # type: ignore[no-any-return]
        except _TypeMismatch:
            pass
    return validated_copy(record)


_building: set[type] = set()


@functools.cache
def copier_for(cls: type[BaseModel]) -> Copier | None:
    """The specialised copier of a record type, or None when it must be validated.

    Raises nothing: an unsupported type (see the module docstring) gives None.
    """
    if cls in _building:  # a type that contains itself: keep to the general rule
        return None
    _building.add(cls)
    try:
        return _model_copier(cls, cls.__pydantic_core_schema__)
    except _Unsupported:
        return None
    finally:
        _building.discard(cls)


@functools.cache
def top_copier_for(cls: type[BaseModel]) -> Copier | None:
    """The copier of a record type one level deep: the fields' values are shared, not copied.

    What ``record.model_copy(update=record.__dict__)`` makes (every field set), built as
    `copier_for` builds its copies, at a third of the cost. None when `copier_for` is None.
    """
    if copier_for(cls) is None:
        return None
    return _make_model_copier(cls, ())


def _model_copier(cls: type[BaseModel], schema: Mapping[str, Any]) -> Copier:
    definitions: dict[str, Any] = {}
    if schema.get("type") == "definitions":
        definitions = {d["ref"]: d for d in schema.get("definitions", []) if "ref" in d}
        schema = schema["schema"]
    if (
        schema.get("type") != "model"
        or "serialization" in schema
        or schema.get("cls") is not cls
        or schema.get("custom_init")
        or schema.get("root_model")
        or schema.get("post_init")
        or (schema.get("config") or {}).get("extra_fields_behavior") == "allow"
        or cls.__private_attributes__
    ):
        raise _Unsupported
    fields_schema = schema["schema"]
    if fields_schema.get("type") != "model-fields" or fields_schema.get("computed_fields"):
        raise _Unsupported
    copiers: list[tuple[str, Copier]] = []
    for name, field in fields_schema["fields"].items():
        if (
            field.get("type") != "model-field"
            or field.get("validation_alias")
            or field.get("serialization_exclude")
            or field.get("serialization_exclude_if")
        ):
            raise _Unsupported  # a dump would not give the field back as it is
        copier = _value_copier(field["schema"], definitions)
        if copier is not _SHARE:
            copiers.append((name, copier))
    if set(fields_schema["fields"]) != set(cls.__pydantic_fields__):
        raise _Unsupported
    return _make_model_copier(cls, tuple(copiers))


def _make_model_copier(cls: type[BaseModel], copiers: tuple[tuple[str, Copier], ...]) -> Copier:
    fields = frozenset(cls.__pydantic_fields__)
    new = cls.__new__
    set_attribute = object.__setattr__

    def copy(record: Any) -> Any:
        if type(record) is not cls:
            raise _TypeMismatch
        values = record.__dict__.copy()
        for name, copier in copiers:
            value = values[name]
            if value is not None:
                values[name] = copier(value)
        # What ``record.model_copy(update=values)`` makes, built directly: every field given
        # (all set, as validated), no extra fields and no private attributes (the copier is
        # made only for types without them).
        copied = new(cls)
        set_attribute(copied, "__dict__", values)
        set_attribute(copied, "__pydantic_extra__", None)
        set_attribute(copied, "__pydantic_fields_set__", set(fields))
        set_attribute(copied, "__pydantic_private__", None)
        return copied

    return copy


def _value_copier(schema: dict[str, Any], definitions: dict[str, Any]) -> Copier | None:
    """How to copy a value validated by `schema`: None to share it, or a copier."""
    kind = schema.get("type")
    if "serialization" in schema:  # a custom serializer: its dump is not the value
        raise _Unsupported
    if kind in ("default", "nullable"):
        return _value_copier(schema["schema"], definitions)  # None is never copied
    if kind in _SCALARS:
        return _SHARE
    if kind == "definition-ref":
        target = definitions.get(schema.get("schema_ref", ""))
        if target is None:
            raise _Unsupported
        return _value_copier(target, definitions)
    if kind == "model":
        nested = copier_for(schema["cls"])
        if nested is None:
            raise _Unsupported
        return nested
    if kind in ("list", "set", "frozenset", "tuple"):
        return _container_copier(kind, schema, definitions)
    if kind == "dict":
        keys = schema.get("keys_schema")
        if keys is None or _value_copier(keys, definitions) is not _SHARE:
            raise _Unsupported
        values_schema = schema.get("values_schema")
        if values_schema is None:
            raise _Unsupported
        item = _value_copier(values_schema, definitions)
        if item is _SHARE:
            return dict
        return lambda mapping: {key: item(value) for key, value in mapping.items()}
    if kind == "union":  # validation picks a member by its fit: only immutable members
        for member in schema["choices"]:
            member = member[0] if isinstance(member, tuple) else member
            if _value_copier(member, definitions) is not _SHARE:
                raise _Unsupported
        return _SHARE
    if kind == "tagged-union":  # the tag picks the member: a model's copy is of its own type
        members: dict[type, Copier] = {}
        for member in schema["choices"].values():
            member_copier = copier_for(member["cls"]) if member.get("type") == "model" else None
            if member_copier is None:
                raise _Unsupported
            members[member["cls"]] = member_copier
        return functools.partial(_copy_by_type, members)
    raise _Unsupported


def _container_copier(
    kind: str, schema: dict[str, Any], definitions: dict[str, Any]
) -> Copier | None:
    if kind == "tuple":
        items = schema.get("items_schema") or []
        if any(_value_copier(item, definitions) is not _SHARE for item in items):
            raise _Unsupported
        return _SHARE  # a tuple of immutable values is immutable
    items_schema = schema.get("items_schema")
    if items_schema is None:
        raise _Unsupported
    item = _value_copier(items_schema, definitions)
    if kind == "frozenset":
        if item is not _SHARE:
            raise _Unsupported
        return _SHARE
    if kind == "set":
        if item is not _SHARE:
            raise _Unsupported
        return set
    if item is _SHARE:
        return list
    return lambda values: [item(value) for value in values]


def _copy_by_type(members: dict[type, Copier], value: Any) -> Any:
    """A member of a tagged union of models: copied by its own type (one of the members)."""
    copier = members.get(type(value))
    if copier is None:
        raise _TypeMismatch
    return copier(value)
