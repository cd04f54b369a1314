"""Item details said as a customer says them: "the blue T-Shirt in size S", not a literal.

Scenarios describe items for the agent's benefit: ``T-Shirt {'color': 'blue', 'size': 'S'}``
(a Python literal), ``Desk Lamp (color: white, bulb: LED)`` and ``the one with color: brass,
bulb: halogen`` (attribute lists). A customer says the same item in words: the colour, the
material and the like before the item's name, the size after it ("in size S"), the rest as
"with ..." ("with LED bulb and a square base"); "none"/"no" is "without ...". The words for
each attribute name are data (``phrasebook.toml``, ``[attributes]``).

`speak_attributes` rewrites every such description in a text and leaves the rest as written.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from functools import lru_cache

from tau_env.data_files import builtin_toml

__all__ = ["speak_attributes", "spoken_item"]

_TABLE = builtin_toml(__package__, "phrasebook.toml")["attributes"]
_BEFORE: frozenset[str] = frozenset(_TABLE["before_name"])
"""Attribute names whose value is said before the item's name ("blue", "polyester")."""
_TEMPLATES: dict[str, str] = dict(_TABLE["templates"])
"""Attribute name -> how it is said (``{value}``), after the item's name."""
_NONE = frozenset({"none", "no", "not resistant", "n/a"})
_YES = frozenset({"yes", "true"})
_DETERMINER = re.compile(
    r"(?:\b(?:the|a|an|one|my|your|another|this|that|its|his|her|their|same)\s+)$", re.IGNORECASE
)

_PAIR = r"['\"][^'\"\n]{1,40}['\"]\s*:\s*['\"][^'\"\n]{0,60}['\"]"
_DICT = r"\{\s*" + _PAIR + r"(?:\s*,\s*" + _PAIR + r")*\s*,?\s*\}"
_NAME = r"(?:[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,3})"
_ITEM = r"[a-z][a-z/ -]{0,30}?:\s*[^,;:(){}\n]+?"
_LIST = _ITEM + r"(?:\s*,\s*" + _ITEM + r")*"
_LIST_END = r"(?=\s*[.;)]|,?\s+and\s+(?:the|a|an|my|your)\b|\s+for\b|\s*$)"

_NAMED_DICT = re.compile(rf"(?P<name>{_NAME})\s+(?P<dict>{_DICT})")
_LEAD = (
    r"(?P<lead>(?:(?P<the>the)\s+)?one\s+(?:with|that has)\s+(?:the\s+)?"
    r"(?:following\s*)?(?:(?:features|attributes|options|specs)\s*)?:?\s*)?"
)
_BARE_DICT = re.compile(rf"{_LEAD}(?P<dict>{_DICT})", re.IGNORECASE)
_NAMED_LIST = re.compile(rf"(?P<name>{_NAME})\s+\((?P<list>{_LIST})\)")
_BARE_LIST = re.compile(
    rf"\b(?P<lead>(?:(?P<the>the)\s+)?one\s+(?:with|that has)\s+)(?P<list>{_LIST}){_LIST_END}"
)
_RANKING = re.compile(r"\b(\w[\w-]*(?: \w[\w-]*)?)((?:\s*>\s*\w[\w-]*(?: \w[\w-]*)?)+)")


def _said(key: str, value: str) -> tuple[str, str]:
    """("before" or "after", words) for one attribute."""
    key, value = key.strip(), value.strip()
    lowered = value.lower()
    template = _TEMPLATES.get(key)
    if key == "size" and value.isalpha() and len(value) > 3:  # "standard", not "S" or "XL"
        return "before", value
    if lowered in _NONE:
        return "after", f"without {_strip_suffix(key)}"
    if lowered in _YES:
        return "after", f"with {key}"
    if template is not None:
        return "after", template.format(value=value)
    if key in _BEFORE:
        return "before", value
    if key.endswith((" color", " colour", " material")):  # "dial color" -> "a black dial"
        return "after", f"with a {value} {key.rsplit(' ', 1)[0]}"
    if value.lower().endswith(key.split()[-1].lower()):  # "2-piece" for "piece count"
        return "before", value
    return "after", f"with {value} {key}"


def _strip_suffix(key: str) -> str:
    return key.rsplit(" ", 1)[0] if key.endswith((" color", " colour", " material")) else key


def spoken_item(name: str, attributes: Sequence[tuple[str, str]], determiner: str = "") -> str:
    """An item with its attributes in words: ``the blue T-Shirt in size S``.

    Args:
        name: The item's name ("T-Shirt"), or "one" for the item spoken of before.
        attributes: (name, value) pairs, in the order given.
        determiner: Said first ("the", "a"; "" when the text has one already; "a" becomes
            "an" before a vowel).
    """
    before: list[str] = []
    after: list[str] = []
    for key, value in attributes:
        where, words = _said(key, value)
        (before if where == "before" else after).append(words)
    withs = [part.removeprefix("with ") for part in after if part.startswith("with ")]
    withouts = [part.removeprefix("without ") for part in after if part.startswith("without ")]
    others = [part for part in after if not part.startswith(("with ", "without "))]
    parts = [*before, name, *others]
    if withs:
        parts.append("with " + _listed(withs))
    if withouts:
        parts.append(("and without " if withs else "without ") + _listed(withouts))
    said = " ".join(parts)
    if determiner == "a" and said[:1].lower() in "aeiou":
        determiner = "an"
    return f"{determiner} {said}" if determiner else said


def _listed(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _pairs_of_dict(text: str) -> list[tuple[str, str]] | None:
    try:
        parsed = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return None
    if not isinstance(parsed, dict):
        return None
    return [(str(key), str(value)) for key, value in parsed.items()]


def _pairs_of_list(text: str) -> list[tuple[str, str]]:
    pairs = []
    for item in re.split(r"\s*,\s*", text):
        key, _, value = item.partition(":")
        pairs.append((key.strip(), value.strip()))
    return pairs


def _determiner(before: str) -> str:
    return "" if _DETERMINER.search(before) else "the"


@lru_cache(maxsize=16384)
def speak_attributes(text: str) -> str:
    """`text` with every item description (literal or attribute list) said in words.

    ``exchange T-Shirt {'color': 'blue', 'size': 'S'} to {'color': 'red'}`` becomes
    ``exchange the blue T-Shirt in size S to a red one``; ``A > B > C`` preferences become
    ``A, then B, then C``. Text without such descriptions is returned as it is.
    """

    def named(found: re.Match[str], pairs: list[tuple[str, str]] | None) -> str:
        if pairs is None:
            return found.group()
        before = text[: found.start()]
        return spoken_item(found["name"], pairs, _determiner(before))

    def bare(found: re.Match[str], pairs: list[tuple[str, str]] | None) -> str:
        if pairs is None:
            return found.group()
        if found["the"]:  # "the one with ..."
            return spoken_item("one", pairs, "the")
        before = text[: found.start()]  # "one with the following attributes: ...", "{...}"
        return spoken_item("one", pairs, "" if _DETERMINER.search(before) else "a")

    if "{" in text:
        text = _NAMED_DICT.sub(lambda m: named(m, _pairs_of_dict(m["dict"])), text)
        text = _BARE_DICT.sub(lambda m: bare(m, _pairs_of_dict(m["dict"])), text)
    if ":" in text:
        text = _NAMED_LIST.sub(lambda m: named(m, _pairs_of_list(m["list"])), text)
        text = _BARE_LIST.sub(lambda m: bare(m, _pairs_of_list(m["list"])), text)
    if ">" in text:
        text = _RANKING.sub(_ranking, text)
    return text


def _ranking(found: re.Match[str]) -> str:
    """``battery > USB > AC`` -> ``battery, then USB, then AC``."""
    rest = [part.strip() for part in found.group(2).split(">") if part.strip()]
    return ", then ".join([found.group(1), *rest])
