"""What the fake OpenAI server sends: completions, streamed chunks and error bodies.

Pure functions of a `FakeRequest` and the `FakeReply` scripted for it, in OpenAI's wire
format (see `tau_env.testing.fake_openai` for the server and the scripting API).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tau_env.testing.fake_replies import FakeReply, FakeRequest, FakeToolCall

__all__ = ["ARGUMENT_PIECE", "completion_body", "error_body", "stream_events"]


def error_body(status: int, message: str) -> dict[str, Any]:
    """An OpenAI-style error body."""
    kinds = {429: "rate_limit_exceeded", 400: "invalid_request_error", 404: "not_found"}
    return {"error": {"message": message, "type": kinds.get(status, "server_error"), "code": None}}


def completion_body(request: FakeRequest, reply: FakeReply) -> dict[str, Any]:
    """A chat completion (``object: chat.completion``) carrying `reply`."""
    message: dict[str, Any] = {"role": "assistant", "content": reply.content}
    if reply.tool_calls:
        message["tool_calls"] = [
            {
                "id": _call_id(request, call, i),
                "type": "function",
                "function": {"name": call.name, "arguments": call.arguments},
            }
            for i, call in enumerate(reply.tool_calls)
        ]
    choice = {"index": 0, "message": message, "finish_reason": _finish_reason(reply)}
    body = {
        "id": f"chatcmpl-fake-{request.number}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": str(request.body.get("model", "fake")),
        "choices": [_with_tokens(choice, reply)],
        "usage": _usage(request, reply),
    }
    if reply.prompt_token_ids is not None:
        body["prompt_token_ids"] = list(reply.prompt_token_ids)
    return body


def _with_tokens(choice: dict[str, Any], reply: FakeReply) -> dict[str, Any]:
    """The choice with the reply's token ids and logprobs, as vLLM sends them."""
    if reply.token_ids is not None:
        choice["token_ids"] = list(reply.token_ids)
    if reply.logprobs is not None:
        ids = reply.token_ids or (None,) * len(reply.logprobs)
        choice["logprobs"] = {
            "content": [
                {
                    "token": f"token_id:{i}" if i is not None else "?",
                    "logprob": p,
                    "bytes": None,
                    "top_logprobs": [],
                }
                for i, p in zip(ids, reply.logprobs, strict=True)
            ]
        }
    return choice


def _call_id(request: FakeRequest, call: FakeToolCall, index: int) -> str:
    return call.id or f"call_{request.number}_{index}"


def _finish_reason(reply: FakeReply) -> str:
    return "tool_calls" if reply.tool_calls else "stop"


def _usage(request: FakeRequest, reply: FakeReply) -> dict[str, int]:
    prompt = reply.prompt_tokens
    if prompt is None:
        size = request.size or len(json.dumps(request.body))
        prompt = max(1, size // 4)
    completion = reply.completion_tokens
    if completion is None:
        out = (reply.content or "") + "".join(c.arguments for c in reply.tool_calls)
        completion = max(1, len(out) // 4)
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }


_WORDS = re.compile(r"\s*\S+|\s+$")
ARGUMENT_PIECE = 16
"""Characters of tool-call arguments per streamed delta."""


def stream_events(request: FakeRequest, reply: FakeReply) -> Iterator[str]:
    """The server-sent events of a streamed reply (JSON chunks, then ``[DONE]``).

    Text arrives word by word, each tool call as a first delta with its id and name and then
    its arguments in `ARGUMENT_PIECE`-character deltas; joined, the deltas are the reply.
    """
    usage = request.include_usage
    head = {
        "id": f"chatcmpl-fake-{request.number}",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": str(request.body.get("model", "fake")),
    }

    def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
        body = {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
        if usage:
            body["usage"] = None  # as OpenAI: null on every chunk but the last
        return json.dumps(body)

    text = reply.content
    first = json.loads(chunk({"role": "assistant", "content": "" if text is not None else None}))
    if reply.prompt_token_ids is not None:  # vLLM: on the first chunk only
        first["prompt_token_ids"] = list(reply.prompt_token_ids)
    yield json.dumps(first)
    for piece in _WORDS.findall(text or ""):
        yield chunk({"content": piece})
    for index, call in enumerate(reply.tool_calls):
        opening = {
            "index": index,
            "id": _call_id(request, call, index),
            "type": "function",
            "function": {"name": call.name, "arguments": ""},
        }
        yield chunk({"tool_calls": [opening]})
        arguments = call.arguments
        for start in range(0, len(arguments), ARGUMENT_PIECE):
            piece = arguments[start : start + ARGUMENT_PIECE]
            yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    last = json.loads(chunk({}, _finish_reason(reply)))
    _with_tokens(last["choices"][0], reply)  # (a real server spreads them over the chunks)
    yield json.dumps(last)
    if usage:
        yield json.dumps({**head, "choices": [], "usage": _usage(request, reply)})
    yield "[DONE]"
