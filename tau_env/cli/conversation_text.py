"""Conversations and grades as plain text lines, for the terminal (``view`` and ``play``).

Messages are read in the stored layout (the reference's: ``role``, ``content``,
``tool_calls`` with ``name`` and ``arguments``, tool results with ``requestor`` and ``error``),
which is also what a live message's ``model_dump(mode="json")`` gives. Long tool results are
cut to `RESULT_CHARS` unless the caller asks for them whole.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["RESULT_CHARS", "grade_lines", "message_lines", "wrapped"]

RESULT_CHARS = 500
"""Characters of a tool result shown before it is cut (``view --full-tool-results``: all)."""


def message_lines(
    message: Mapping[str, Any], *, result_chars: int | None = RESULT_CHARS
) -> list[str]:
    """One message as labelled lines: ``agent: text``, ``user -> tool(args)``, ``tool: result``.

    Args:
        message: A message in the stored layout.
        result_chars: Cut tool results longer than this (None: never).
    """
    role = message.get("role")
    speaker = "agent" if role == "assistant" else str(role)
    lines: list[str] = []
    if role == "tool":
        side = "user" if message.get("requestor") == "user" else "agent"
        result = str(message.get("content") or "")
        if result_chars is not None and len(result) > result_chars:
            result = f"{result[:result_chars]}... ({len(result) - result_chars} more characters)"
        label = f"tool result to the {side}" + (" (error)" if message.get("error") else "")
        return [f"{label}: {line}" if i == 0 else f"  {line}" for i, line in _split(result)]
    text = message.get("content")
    if text:
        lines += [f"{speaker}: {line}" if i == 0 else f"  {line}" for i, line in _split(text)]
    for call in message.get("tool_calls") or ():
        arguments = call.get("arguments")
        shown = arguments if isinstance(arguments, str) else json.dumps(arguments)
        lines.append(f"{speaker} calls {call.get('name')}({shown})")
    if not lines:
        lines.append(f"{speaker}: (empty)")
    return lines


def grade_lines(grade: Mapping[str, Any]) -> list[str]:
    """The grade: reward and ending, then each check with the items it did not meet."""
    reward = grade.get("reward")
    shown = "not judged" if reward is None else f"{reward:.3f}"
    basis = ", ".join(grade.get("reward_basis") or ()) or "none"
    lines = [f"reward {shown} ({grade.get('termination')}); reward basis: {basis}"]
    if grade.get("note"):
        lines.append(f"note: {grade['note']}")
    for name, check in (grade.get("checks") or {}).items():
        value = check.get("reward")
        state = "not judged" if value is None else ("met" if value >= 1.0 else "not met")
        lines.append(f"  {name}: {state}")
        for detail in check.get("details") or ():
            if detail.get("met") is False:
                lines.append(f"    not met: {_detail(detail)}")
    return lines


def wrapped(lines: Iterable[str], width: int) -> list[str]:
    """`lines` wrapped to `width` columns, continuation lines indented."""
    out: list[str] = []
    for line in lines:
        out += textwrap.wrap(line, width, subsequent_indent="    ", drop_whitespace=False) or [""]
    return out


def _split(text: str) -> Iterable[tuple[int, str]]:
    return enumerate(str(text).splitlines() or [""])


def _detail(detail: Mapping[str, Any]) -> str:
    """A check's item in one line: its name or text, without the ``met`` flag."""
    for key in ("name", "assertion", "nl_assertion", "info", "action_id"):
        if detail.get(key):
            rest = {k: v for k, v in detail.items() if k not in (key, "met")}
            return f"{detail[key]} {json.dumps(rest)}" if rest else str(detail[key])
    return json.dumps({k: v for k, v in detail.items() if k != "met"})
