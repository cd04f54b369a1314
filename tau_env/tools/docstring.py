"""The parts of a Google-style docstring that tools need: summary, long description, ``Args:``.

Tool descriptions and parameter descriptions come from here, so a tool is documented once, in
its docstring, and the JSON schema the LLM sees says the same thing. Parsing is done by the
`docstring_parser` library (Google style); this module only reduces its result to what the
tool registry uses.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from docstring_parser import google

__all__ = ["Docstring", "parse_docstring"]


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
        The summary line, the text between it and the first section, and the ``Args:``
        entries (``*args``/``**kwargs`` without their stars; a description that wraps over
        several lines joined into one line).
    """
    parsed = google.parse(text or "")
    args = {
        param.arg_name.lstrip("*"): " ".join(
            line.strip() for line in (param.description or "").splitlines() if line.strip()
        )
        for param in parsed.params
        if param.args[0] == "param"
    }
    return Docstring(
        summary=(parsed.short_description or "").strip(),
        long_description=(parsed.long_description or "").strip(),
        args=args,
    )
