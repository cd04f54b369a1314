"""The arguments of a user-tool request: from call syntax, or from the agent's words.

**Call syntax.** ``tool_name(key=value, ...)`` naming one of the user's tools is taken
literally (`call_syntax`); values may be JSON or Python literals, or bare words
(``mode=4g_only``).

**Words** (`fill_arguments`), for each parameter of the requested tool, the first that gives
a value, read in the request's scope (its sentence and the next ones up to the next request):

1. a value the domain's lexicon names ("LTE only" -> ``4g_only``), as the request read it;
2. one of the parameter's options (its ``enum``, or values its description lists: "One of a,
   b or c.", "e.g. messaging", quoted examples) named in the text; an object parameter whose
   fields have options takes the fields named ("APN name internet");
3. the domain's `ParameterWords`: a pattern for the value, the value stated after words naming
   the parameter ("annual income of $100,000", "merchant Best Buy"), or the ``key value``
   pairs the text states (as JSON text);
4. the words of the parameter's name followed by a value ("user ID 76ad9cc60e");
5. the customer's own facts (the parameter's name, or the lexicon's facts for it:
   ``customer_name`` <- ``name``);
6. an id-like word (``notif_1``) for a parameter named ``*_id``; an amount of money for a
   number.

Numbers are read as numbers ("$100,000" -> 100000.0), whatever the text's commas.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from tau_env.tasks.user_vocabulary import ParameterWords

__all__ = ["RequestedCall", "call_syntax", "fill_arguments", "missing_arguments"]

_CALL = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*\(([^()]*)\)")
_ID_TOKEN = re.compile(r"\b[A-Za-z]+(?:_[A-Za-z]+)*[_-]?\d+[\w-]*\b")
_LISTED = re.compile(r"(?:one of|e\.g\.,?|:)\s*([\w ,\"']+?)\s*(?:\.|\)|$)", re.IGNORECASE)
_QUOTED = re.compile(r"[\"']([A-Za-z][\w ]*)[\"']")
_NUMBER = r"\$?\s?\d[\d,]*(?:\.\d+)?(?:\s?k\b)?"
_MONEY = re.compile(r"\$\s?\d[\d,]*(?:\.\d+)?(?:\s?k\b)?|\b\d[\d,]*(?:\.\d+)?\s?(?:USD|dollars)\b")
_ID_VALUE = r"[\w.@+-]*\d[\w.@+-]*|[a-z]+(?:_[a-z0-9]+)+"
_STRING = (
    r"\"[^\"]+\"|'[^']+'|[A-Z](?:[\w&'+-]|\.(?=\w))*(?:\s+[A-Z](?:[\w&'+-]|\.(?=\w))*)*"
    r"|[\w.@+-]*\d[\w.@+-]*|[a-z]+(?:_[a-z0-9]+)+"
)
_LINK = r"\s*(?:[:=]|\bis\b|\bof\b|\bset to\b|\bto\b|\bas\b|,)?\s*(?:the\s+|your\s+)?"
_PAIR = re.compile(
    r"\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b\s*(?:[:=]|\bset to\b|\bis\b|\bof\b)?\s*"
    r"(\"[^\"]*\"|'[^']*'|-?\d[\d,]*(?:\.\d+)?(?![\w.-]*[A-Za-z_])|[\w.@+-]*\d[\w.@+-]*)"
)
_PAIR_AFTER = re.compile(r"([\w.@+-]*\d[\w.@+-]*)\s*\(\s*([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\s*\)")
"""A value with its key after it in parentheses: ``cc_8903 (credit_card_account_id)``."""
_JSON_OBJECT = re.compile(r"\{[^{}]*\}")


@dataclass(frozen=True)
class RequestedCall:
    """A user-tool call read from the agent's text.

    Attributes:
        name: The user tool.
        arguments: Arguments found for it.
        missing: Required arguments that could not be found in the text or the facts.
        position: Where in the text it was requested (orders several requests).
    """

    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    missing: tuple[str, ...] = ()
    position: int = 0


# -- call syntax -------------------------------------------------------------------------------


def call_syntax(text: str, schemas: Mapping[str, Mapping[str, Any]]) -> list[RequestedCall]:
    """The ``tool(key=value, ...)`` calls of the user's tools written in `text`."""
    calls = []
    for match in _CALL.finditer(text):
        name = match.group(1)
        if name not in schemas:
            continue
        arguments = _as_declared(schemas[name], _parse_arguments(match.group(2)))
        calls.append(
            RequestedCall(
                name, arguments, missing_arguments(schemas[name], arguments), match.start()
            )
        )
    return calls


def _as_declared(schema: Mapping[str, Any], arguments: dict[str, Any]) -> dict[str, Any]:
    """JSON text back for string parameters written as objects (``arguments={"a": 1}``)."""
    properties = schema.get("parameters", {}).get("properties", {})
    return {
        key: json.dumps(value)
        if isinstance(value, dict | list) and properties.get(key, {}).get("type") == "string"
        else value
        for key, value in arguments.items()
    }


def _parse_arguments(text: str) -> dict[str, Any]:
    """``k=v, ...`` with literal or bare values (bare values run to the next ``, key=``)."""
    arguments: dict[str, Any] = {}
    if not text.strip():
        return arguments
    try:
        call = ast.parse(f"f({text})", mode="eval").body
        if isinstance(call, ast.Call) and not call.args:
            for keyword in call.keywords:
                if keyword.arg is not None:
                    arguments[keyword.arg] = ast.literal_eval(keyword.value)
            return arguments
    except (SyntaxError, ValueError, RecursionError):  # (nested deeper than Python goes)
        pass
    for part in re.split(r",\s*(?=[A-Za-z_][A-Za-z0-9_]*\s*=)", text):
        key, sep, value = part.partition("=")
        if sep:
            arguments[key.strip()] = _literal(value.strip())
    return arguments


def _literal(value: str) -> Any:
    for parse in (json.loads, ast.literal_eval):
        try:
            return parse(value)
        except (ValueError, SyntaxError, RecursionError):
            continue
    return value.strip("'\"")


def missing_arguments(schema: Mapping[str, Any], arguments: Mapping[str, Any]) -> tuple[str, ...]:
    """The required parameters of `schema` that `arguments` lacks."""
    required = schema.get("parameters", {}).get("required", [])
    return tuple(name for name in required if name not in arguments)


# -- words -------------------------------------------------------------------------------------


@lru_cache(maxsize=1024)
def _listed_options(description: str) -> tuple[str, ...]:
    """Values a parameter's description lists ("One of a, b or c.", "e.g. messaging", quotes)."""
    options: list[str] = []
    for found in _LISTED.finditer(description):
        for part in re.split(r",\s*|\s+or\s+", found.group(1)):
            part = part.strip()
            if re.fullmatch(r"[a-z0-9_]+", part):
                options.append(part)
    options += [quoted for quoted in _QUOTED.findall(description) if quoted not in options]
    return tuple(options)


def _squashed(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _named_option(options: tuple[Any, ...] | list[Any], scope: str) -> Any | None:
    squashed = _squashed(scope)
    named = [o for o in options if _squashed(str(o)) and _squashed(str(o)) in squashed]
    return max(named, key=lambda o: len(str(o))) if named else None


def fill_arguments(
    schema: Mapping[str, Any],
    scope: str,
    facts: Mapping[str, str],
    values: Mapping[str, str] | None = None,
    words: Mapping[str, ParameterWords] | None = None,
) -> dict[str, Any]:
    """The arguments of a tool requested in `scope` (see the module docstring).

    Args:
        schema: The tool's OpenAI function schema.
        scope: The text the request and its details are in.
        facts: What the customer knows.
        values: Values the lexicon's words named for the request.
        words: The domain's `ParameterWords`, by parameter.
    """
    parameters = schema.get("parameters", {})
    properties: Mapping[str, Any] = parameters.get("properties", {})
    values = values or {}
    words = words or {}
    ids = list(_ID_TOKEN.findall(scope))
    arguments: dict[str, Any] = {}
    for name, prop in properties.items():
        value = _from_words(name, prop, parameters, scope, values, words.get(name), arguments)
        if value is None:
            value = _from_facts(name, facts, words.get(name), ids, scope)
        if value is None and name.endswith("_id") and ids:
            value = ids.pop(0)
        if value is None and _type(prop) in ("number", "integer"):
            value = _first_money(scope, arguments)
        if value is not None:
            arguments[name] = _typed(value, prop)
    return arguments


def _from_words(
    name: str,
    prop: Mapping[str, Any],
    parameters: Mapping[str, Any],
    scope: str,
    values: Mapping[str, str],
    said: ParameterWords | None,
    arguments: Mapping[str, Any],
) -> Any | None:
    if name in values:
        return values[name]
    options = prop.get("enum") or _listed_options(prop.get("description", ""))
    if options:
        named = _named_option(options, scope)
        if named is not None or prop.get("enum"):
            return named
    nested = _object_fields(prop, parameters, scope)
    if nested:
        return nested
    if said is not None:
        if said.read == "pairs":
            return _pairs(scope, arguments)
        if said.pattern:
            found = re.search(said.pattern, scope)
            if found:
                return next((g for g in found.groups() if g), found.group(0)).rstrip(".,;:")
    return _stated(name, (*(said.say if said else ()), name.replace("_", " ")), prop, scope)


def _object_fields(
    prop: Mapping[str, Any], parameters: Mapping[str, Any], scope: str
) -> dict[str, Any] | None:
    """An object parameter's fields whose options the text names (None: none named)."""
    reference = prop.get("$ref", "")
    definition = parameters.get("$defs", {}).get(reference.rsplit("/", 1)[-1], prop)
    fields: Mapping[str, Any] = definition.get("properties", {}) if reference else {}
    found = {}
    for key, field_schema in fields.items():
        options = field_schema.get("enum")
        if options:
            named = _named_option(options, scope)
            if named is not None:
                found[key] = named
    return found or None


def _type(prop: Mapping[str, Any]) -> str:
    return str(prop.get("type", ""))


def _stated(name: str, phrases: tuple[str, ...], prop: Mapping[str, Any], scope: str) -> str | None:
    """The value written right after one of `phrases` ("income of $100,000", "user ID x1").

    An id (a parameter named ``*_id``) is a word with a digit or an identifier.
    """
    if _type(prop) in ("number", "integer"):
        value = _NUMBER
    else:
        value = _ID_VALUE if name.endswith("_id") else _STRING
    for phrase in (name, *phrases):
        pattern = rf"(?i:(?<![\w-]){re.escape(phrase)}(?![\w-])){_LINK}(?P<v>{value})"
        found = re.search(pattern, scope)
        if found:
            return found.group("v").strip("'\"").rstrip(".,;:!?")
    return None


def _from_facts(
    name: str, facts: Mapping[str, str], said: ParameterWords | None, ids: list[str], scope: str
) -> str | None:
    keys = [name, *(said.facts if said is not None else ())]
    for key in keys:
        if key in facts and (facts[key] in scope or not ids or key != name):
            return facts[key]
    return facts.get(name) if name in facts and not name.endswith("_id") else None


def _pairs(scope: str, arguments: Mapping[str, Any]) -> str | None:
    """The JSON object written in `scope`, or of the ``key value`` pairs it states."""
    written = _JSON_OBJECT.search(scope)
    if written:
        try:
            return json.dumps(json.loads(written.group(0)))
        except json.JSONDecodeError:
            pass
    taken = {str(value) for value in arguments.values()}
    pairs: dict[str, Any] = {}
    found = _PAIR.findall(scope) + [(key, value) for value, key in _PAIR_AFTER.findall(scope)]
    for key, value in found:
        if key in taken or key in pairs:
            continue
        pairs[key] = _number_or_text(value.strip("'\"").rstrip(".,;:"))
    return json.dumps(pairs) if pairs else None


def _number_or_text(value: str) -> Any:
    try:
        number = float(value.replace(",", ""))
    except ValueError:
        return value
    return int(number) if number.is_integer() else number


def _first_money(scope: str, arguments: Mapping[str, Any]) -> str | None:
    used = {str(value) for value in arguments.values()}
    for found in _MONEY.finditer(scope):
        if str(_as_number(found.group(0))) not in used:
            return found.group(0)
    return None


def _as_number(text: str) -> float | None:
    cleaned = re.sub(r"(?i)usd|dollars|[$,\s]", "", text)
    factor = 1000.0 if cleaned.lower().endswith("k") else 1.0
    try:
        return float(cleaned.rstrip("kK")) * factor
    except ValueError:
        return None


def _typed(value: Any, prop: Mapping[str, Any]) -> Any:
    kind = _type(prop)
    if kind in ("number", "integer") and isinstance(value, str):
        number = _as_number(value)
        if number is not None:
            return int(number) if kind == "integer" else number
    if kind == "boolean" and isinstance(value, str):
        return value.lower() in ("yes", "true", "with")
    return value
