"""Chat requests as bytes, built once per call: each message is serialised once per conversation.

An episode sends its whole history on every call, and the history only grows: call ``n`` repeats
the ``n - 1`` messages of the call before it, then adds one or two. `RequestWriter` keeps the
JSON of the messages it has already written and of the last tool list, so a call serialises only
what is new. The same bytes make the request body and the response-cache key: the key is the
SHA-256 of the canonical JSON that `tau_env.llm.cache.request_key` hashes (sorted keys,
``", "`` and ``": "`` separators), fed message by message from the hash state of the prefix.

A message is reused when it compares equal to the copy kept of it, so callers may rebuild
their message dicts on every call (as `to_openai_messages` does) or mutate them in place;
either way the bytes sent are those of the messages given. A tool list is reused when it is
the very list of an earlier call (of any conversation: envs hand every episode the same list)
with the same length, or compares equal to the last one: tool lists are not copied, so change
tools by passing a new list rather than editing one in place.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tau_env.utils.surrogates import json_utf8

__all__ = ["ChatCall", "RequestWriter", "canonical_json"]

_SHARED_TOOLS: dict[int, tuple[Any, int, bytes, bytes]] = {}
"""JSON of recently seen tool lists, by id: (the list itself, its length, its JSON in the
request body, its canonical JSON for the cache key)."""
_SHARED_TOOLS_LIMIT = 256


_CANONICAL = json.JSONEncoder(sort_keys=True, ensure_ascii=False, default=str)
"""The encoder `json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)` builds."""
_C_ENCODER = getattr(json.encoder, "c_make_encoder", None)


def canonical_json(value: Any) -> bytes:
    """The cache key's JSON of a value (sorted keys, non-ASCII kept), in UTF-8.

    A lone surrogate in a string (half an emoji from an earlier reply) is written as its JSON
    escape (`tau_env.utils.surrogates`): the server reads the same text back.

    The text of ``json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)``: the
    C encoder that call builds, called directly (its Python layers cost more than encoding a
    message).
    """
    if _C_ENCODER is None:
        return json_utf8(_CANONICAL.encode(value))
    encoder = _C_ENCODER(
        {}, str, json.encoder.encode_basestring, None, ": ", ", ", True, False, True
    )
    return json_utf8("".join(encoder(value, 0)))


def _field(name: str, value: Any) -> bytes:
    """``, "name": value`` as the request body writes a field after the messages."""
    return b', "' + name.encode() + b'": ' + json.dumps(value).encode()


_TOOL_CHOICES = {choice: _field("tool_choice", choice) for choice in ("auto", "required", "none")}
_STREAM = _field("stream", True) + _field("stream_options", {"include_usage": True})


def _int_json(value: Any) -> bytes:
    """JSON of a seed (an int, as a rule: written without the encoder)."""
    return str(value).encode() if type(value) is int else json.dumps(value).encode()


_SYSTEM_JSON: dict[str, bytes] = {}
"""JSON of recent system messages, by their text: every episode of a run opens with the same
prompt (or one of a few), and it is the longest message of most conversations."""
_SYSTEM_JSON_LIMIT = 64


def _message_json(message: Mapping[str, Any]) -> bytes:
    """`canonical_json` of a message; a plain system message's is kept for the next episodes."""
    content = message.get("content")
    if message.get("role") != "system" or len(message) != 2 or type(content) is not str:
        return canonical_json(message)
    data = _SYSTEM_JSON.get(content)
    if data is None:
        data = canonical_json(message)
        if len(_SYSTEM_JSON) >= _SYSTEM_JSON_LIMIT:
            _SYSTEM_JSON.clear()
        _SYSTEM_JSON[content] = data
    return data


_ATOMS = frozenset({str, int, float, bool, type(None)})


def _copy(value: Any) -> Any:
    """A copy of the mutable parts of a JSON-like value (to compare the next call against)."""
    if type(value) is dict:  # a message: copied whole, then its nested values (few have any)
        copied = value.copy()
        for key, item in value.items():
            if type(item) not in _ATOMS:
                copied[key] = _copy(item)
        return copied
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [item if type(item) in _ATOMS else _copy(item) for item in value]
    return value


@dataclass(frozen=True)
class ChatCall:
    """One model call, ready to send: the request body and, when wanted, its cache key.

    Attributes:
        body: The JSON request body, as sent to an OpenAI-compatible endpoint.
        key: The response-cache key (`tau_env.llm.cache.request_key` of the same request);
            None when it was not asked for.
        messages: The messages, as given.
        tools: The tool schemas offered (None: none).
        tool_choice: The tool choice sent (None when no tools are offered).
        seed: The sampling seed sent (None: none).
    """

    body: bytes
    key: str | None
    messages: Sequence[Mapping[str, Any]]
    tools: Sequence[Mapping[str, Any]] | None
    tool_choice: str | Mapping[str, Any] | None
    seed: int | None


class RequestWriter:
    """Writes the chat requests of one conversation (one client, one episode side).

    Args:
        model: The model named in the body (the provider's name, without a routing prefix).
        key_model: The model named in the cache key (as configured, so both routes share keys).
        settings: Fixed body fields (temperature, sampling parameters...), in body order.
        params: The configured extra parameters (part of the cache key).
        temperature: The configured temperature (part of the cache key).
    """

    def __init__(
        self,
        *,
        model: str,
        key_model: str,
        settings: Mapping[str, Any],
        params: Mapping[str, Any],
        temperature: float | None,
    ) -> None:
        self._head = b'{"model": ' + json.dumps(model).encode() + b', "messages": ['
        self._settings = b"".join(
            _field(name, value) for name, value in settings.items() if value is not None
        )
        self._key_model = canonical_json(key_model)
        self._key_params = canonical_json(dict(params))
        self._key_temperature = canonical_json(temperature)
        self._sent: list[Any] = []  # copies of the messages whose JSON is in `_parts`
        self._parts: list[bytes] = []
        self._hashes: list[Any] = []  # hash state after each message (for cache keys)
        self._tools: Any = None  # the last tool list, its length when seen, and its JSON
        self._tools_length = 0
        self._tools_json = self._tools_key = b"null"

    def fresh(self) -> RequestWriter:
        """A writer for another conversation with the same settings (nothing re-encoded)."""
        writer = copy.copy(self)
        writer._sent, writer._parts, writer._hashes = [], [], []
        writer._tools, writer._tools_length = None, 0
        writer._tools_json = writer._tools_key = b"null"
        return writer

    def call(
        self,
        messages: Sequence[Mapping[str, Any]],
        tools: Sequence[Mapping[str, Any]] | None,
        tool_choice: str | Mapping[str, Any] | None,
        seed: int | None,
        *,
        stream: bool = False,
        with_key: bool = False,
    ) -> ChatCall:
        """The request for `messages` (the conversation so far) and the tools offered.

        Args:
            messages: OpenAI-format messages (at least one).
            tools: Function schemas (None or empty: none, and no tool choice is sent).
            tool_choice: Sent with tools only; ``"auto"`` when None.
            seed: Sampling seed (None: not sent).
            stream: Ask for server-sent events, with the usage chunk.
            with_key: Compute the response-cache key as well.
        """
        if not messages:
            raise ValueError("a completion needs at least one message")
        if not tools:
            tools, tool_choice = None, None
        elif tool_choice is None:
            tool_choice = "auto"
        kept = self._reuse(messages)
        parts = self._parts
        for message in messages[kept:]:
            parts.append(_message_json(message))
            self._sent.append(_copy(message))
        tools_json, tools_key = self._tools_part(tools)
        chunks = [self._head, b", ".join(parts), b"]"]
        if tools is not None:
            chunks += [b', "tools": ', tools_json]
        chunks.append(self._settings)
        if tool_choice is not None:
            known = _TOOL_CHOICES.get(tool_choice) if isinstance(tool_choice, str) else None
            chunks.append(known or _field("tool_choice", tool_choice))
        if seed is not None:
            chunks.append(b', "seed": ' + _int_json(seed))
        if stream:
            chunks.append(_STREAM)
        chunks.append(b"}")
        key = self._key(tools_key, tool_choice, seed) if with_key else None
        return ChatCall(b"".join(chunks), key, messages, tools, tool_choice, seed)

    def _reuse(self, messages: Sequence[Mapping[str, Any]]) -> int:
        """How many leading messages were written before; forget the rest."""
        sent = self._sent
        limit = min(len(sent), len(messages))
        same = 0
        while same < limit and messages[same] == sent[same]:
            same += 1
        if same < len(sent):
            del sent[same:], self._parts[same:], self._hashes[same:]
        return same

    def _tools_part(self, tools: Sequence[Mapping[str, Any]] | None) -> tuple[bytes, bytes]:
        """The tools' JSON in the body and in the cache key.

        The body keeps the schemas' own key order: a served model's chat template writes the
        schemas as they arrive, and training routes render them in that order too
        (`tau_env.chat.transcript`); the key's JSON is canonical (sorted keys).
        """
        if tools is None:
            return b"null", b"null"
        last = self._tools
        same = last is not None and len(tools) == self._tools_length
        if same and (tools is last or tools == last):
            self._tools = tools
            return self._tools_json, self._tools_key
        shared = _SHARED_TOOLS.get(id(tools))
        if shared is not None and shared[0] is tools and shared[1] == len(tools):
            data, key = shared[2], shared[3]
        else:
            data = json.dumps(list(tools), ensure_ascii=False, default=str).encode("utf-8")
            key = canonical_json(list(tools))
            if len(_SHARED_TOOLS) >= _SHARED_TOOLS_LIMIT:
                _SHARED_TOOLS.pop(next(iter(_SHARED_TOOLS)), None)
            _SHARED_TOOLS[id(tools)] = (tools, len(tools), data, key)
        self._tools, self._tools_length = tools, len(tools)
        self._tools_json, self._tools_key = data, key
        return data, key

    def _key(
        self, tools_json: bytes, tool_choice: str | Mapping[str, Any] | None, seed: int | None
    ) -> str:
        """`request_key` of the call, hashing only the messages not hashed before."""
        hashes = self._hashes
        parts = self._parts
        state = hashes[-1].copy() if hashes else hashlib.sha256(b'{"messages": [')
        for index in range(len(hashes), len(parts)):
            if index:
                state.update(b", ")
            state.update(parts[index])
            hashes.append(state.copy())
        state = state.copy()
        state.update(b'], "model": ' + self._key_model)
        state.update(b', "params": ' + self._key_params)
        seed_json = str(seed).encode() if type(seed) is int else canonical_json(seed)
        state.update(b', "seed": ' + seed_json)
        state.update(b', "temperature": ' + self._key_temperature)
        state.update(b', "tool_choice": ' + canonical_json(tool_choice))
        state.update(b', "tools": ' + tools_json + b"}")
        return state.hexdigest()
