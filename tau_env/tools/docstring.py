"""A small parser for Google-style docstrings: summary, long description and ``Args:``.

Tool descriptions and parameter descriptions come from here, so a tool is documented once, in
its docstring, and the JSON schema the LLM sees says the same thing.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field

__all__ = ["Docstring", "parse_docstring"]

_SECTION = re.compile(r"^(Args|Arguments|Returns|Yields|Raises|Examples?|Notes?|Attributes):\s*$")
_ARG = re.compile(r"^(\*{0,2}\w+)\s*(?:\(([^)]*)\))?\s*:\s*(.*)$")


@dataclass(frozen=True)
class Docstring:
    """The parts of a docstring that tools need."""

    summary: str
    long_description: str
    args: dict[str, str] = field(default_factory=dict)

    @property
    def description(self) -> str:
        """Summary, then a blank line and the long description when there is one."""
        if self.long_description:
            return f"{self.summary}\n\n{self.long_description}"
        return self.summary


def parse_docstring(text: str | None) -> Docstring:
    """Parse a Google-style docstring.

    Args:
        text: The raw docstring (``None`` gives an empty result).

    Returns:
        The summary line, the text between it and the first section, and the ``Args:`` entries.
    """
    lines = inspect.cleandoc(text or "").splitlines()
    head: list[str] = []
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in lines:
        match = _SECTION.match(line.strip()) if not line.startswith((" ", "\t")) else None
        if match:
            current = sections.setdefault(match.group(1), [])
        elif current is None:
            head.append(line)
        else:
            current.append(line)
    summary = head[0].strip() if head else ""
    long_description = "\n".join(head[1:]).strip()
    raw_args = sections.get("Args", sections.get("Arguments", []))
    return Docstring(summary, long_description, _parse_args(raw_args))


def _parse_args(lines: list[str]) -> dict[str, str]:
    args: dict[str, list[str]] = {}
    indent: int | None = None
    name: str | None = None
    for line in lines:
        if not line.strip():
            continue
        depth = len(line) - len(line.lstrip())
        if indent is None:
            indent = depth
        match = _ARG.match(line.strip()) if depth == indent else None
        if match:
            name = match.group(1).lstrip("*")
            args[name] = [match.group(3).strip()]
        elif name is not None:
            args[name].append(line.strip())
    return {key: " ".join(part for part in parts if part) for key, parts in args.items()}
