"""Reading tool calls out of raw model text, for trainers that sample text rather than messages.

Formats understood (the common ones of open tool-calling models):

* **Hermes / Qwen**: ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>`` blocks, any
  number, anywhere in the text; the text outside the blocks is the message's content.
* **OpenAI JSON**: the whole reply is a JSON object ``{"name": ..., "arguments": ...}``,
  ``{"type": "function", "function": {...}}``, ``{"tool_calls": [...]}`` (optionally with
  ``"content"``), or a JSON list of calls; fenced in a ```` ```json ```` block or not.

Reasoning (``<think>...</think>``) is removed, since it is not addressed to anyone. A block
whose JSON cannot be read still counts as a call (of the name found in it, with the raw text as
arguments), so the env answers with an ``Error: ...`` result instead of the call vanishing.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["parse_assistant_text", "render_tool_call"]

_TOOL_CALL = re.compile(r"<tool_call>(.*?)(?:</tool_call>|$)", re.DOTALL)
_THINK = re.compile(r"<think>.*?(?:</think>|$)", re.DOTALL)
_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL)
_NAME = re.compile(r'"name"\s*:\s*"([^"]+)"')


def parse_assistant_text(text: str) -> dict[str, Any]:
    """The assistant message (``role``, ``content``, optional ``tool_calls``) a reply stands for.

    Tool calls carry no ids (`tau_env.chat.ChatEnv` numbers them) and their arguments as JSON
    text. A reply with no recognisable call is plain text.
    """
    text = _THINK.sub("", text)
    blocks = _TOOL_CALL.findall(text)
    if blocks:
        content = _TOOL_CALL.sub("", text).strip() or None
        return _message(content, [_block_call(block) for block in blocks])
    stripped = text.strip()
    fenced = _FENCE.match(stripped)
    candidate = fenced.group(1) if fenced else stripped
    if candidate[:1] in ("{", "["):
        found = _json_calls(_json_or_none(candidate))
        if found is not None:
            content, calls = found
            return _message(content, calls)
    return _message(stripped or None, [])


def render_tool_call(name: str, arguments: dict[str, Any]) -> str:
    """A call in the Hermes / Qwen format (how scripted policies and tests write one)."""
    return f"<tool_call>\n{json.dumps({'name': name, 'arguments': arguments})}\n</tool_call>"


def _json_or_none(text: str) -> Any:
    """`text` parsed as JSON; None when it is not JSON (or nested deeper than the parser goes)."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _message(content: str | None, calls: list[dict[str, Any]]) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = calls
    return message


def _call(name: str, arguments: object) -> dict[str, Any]:
    if isinstance(arguments, str):
        text = arguments
    else:
        text = json.dumps(arguments if arguments is not None else {})
    return {"type": "function", "function": {"name": name, "arguments": text}}


def _block_call(block: str) -> dict[str, Any]:
    body = block.strip()
    call = _one_call(_json_or_none(body))
    if call is not None:
        return call
    match = _NAME.search(body)
    return _call(match.group(1) if match else "unparsable_tool_call", body)


def _one_call(obj: object) -> dict[str, Any] | None:
    if not isinstance(obj, dict):
        return None
    function = obj.get("function")
    if isinstance(function, dict):
        obj = function
    name = obj.get("name")
    if not isinstance(name, str) or not name:
        return None
    return _call(name, obj.get("arguments", obj.get("parameters", {})))


def _json_calls(parsed: object) -> tuple[str | None, list[dict[str, Any]]] | None:
    if isinstance(parsed, dict) and isinstance(parsed.get("tool_calls"), list):
        calls = [_one_call(c) for c in parsed["tool_calls"]]
        if calls and all(c is not None for c in calls):
            content = parsed.get("content")
            return (content if isinstance(content, str) else None), [c for c in calls if c]
        return None
    items = parsed if isinstance(parsed, list) else [parsed]
    calls = [_one_call(item) for item in items]
    if calls and all(c is not None for c in calls):
        return None, [c for c in calls if c]
    return None
