r"""Hostile requests for the OpenEnv server, drawn from a seed: the fuzz test and benchmark's.

Values a client can write in JSON that the server's own code never produces: non-finite and
huge numbers, lone surrogates (``\ud800``), deep nesting, long text, wrong types; bodies that
are not JSON, or JSON under another content type; WebSocket messages of every type with such
data, tool calls with regular expressions that backtrack for ever in Python's ``re``
(`WORST_PATTERNS`), unknown message types and frames that are not text. Everything is written
as raw text, since some of it (NaN, a 5,000-digit integer) ``json.dumps`` will not write.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

__all__ = [
    "WORST_PATTERNS",
    "HttpRequest",
    "hostile_json",
    "hostile_requests",
    "hostile_ws_messages",
    "worst_steps",
]

WORST_PATTERNS = (
    r"(\s|.)*@@@",
    r"(a|aa)*b",
    r"(.*)*x{1000}",
    r"([a-z]+)+$@",
    r"(?:[a-q][^u-z]{200}x)",
    r"(x+x+)+y",
    "a*",
    "(a)\\1",
    "(?=fee)fee",
)
"""Patterns for banking's ``grep``: catastrophic backtracking in ``re``, costly ones in RE2
(every position matching, a DFA that cannot fit), and constructs RE2 refuses."""

_SCALARS: tuple[str, ...] = (
    "NaN",
    "Infinity",
    "-Infinity",
    "1e400",
    "-1e400",
    "1e308",
    "9223372036854775808",
    "-1",
    "0.5",
    "true",
    "null",
    '""',
    '"\\ud800"',
    '"x\\udc00y"',
    '"\\ud83d\\ude00"',
    '"\\u0000"',
    '"[telecom]no-such-task"',
    "[]",
    "{}",
)


def hostile_json(rng: random.Random, depth: int = 0) -> str:
    """One JSON value (as text) a server must take or refuse without failing."""
    kind = rng.randrange(10)
    if kind < 4 or depth > 2:
        return rng.choice(_SCALARS)
    if kind == 4:
        return "9" * rng.choice((300, 4301, 5000))  # past Python's 4,300-digit int limit
    if kind == 5:
        nesting = rng.choice((50, 1500, 5000))  # past the interpreter's recursion limit
        return "[" * nesting + "]" * nesting
    if kind == 6:
        return json.dumps("x" * rng.choice((1_000, 20_000, 300_000)))
    if kind == 7:
        return json.dumps(rng.choice(WORST_PATTERNS))
    if kind == 8:
        return "[" + ",".join(hostile_json(rng, depth + 1) for _ in range(rng.randrange(4))) + "]"
    keys = ("task_id", "split", "index", "seed", "episode_id", "content", "name", "x")
    count = rng.randrange(4)
    pairs = [f'"{rng.choice(keys)}":{hostile_json(rng, depth + 1)}' for _ in range(count)]
    return "{" + ",".join(pairs) + "}"


@dataclass(frozen=True)
class HttpRequest:
    """One HTTP request: method, path, ``Content-Type`` (None: not sent) and body."""

    method: str
    path: str
    content_type: str | None
    body: bytes | None


_FIELDS = {
    "/reset": ("task_id", "split", "index", "seed", "episode_id"),
    "/step": ("action",),
    "tasks": ("split",),
    "num_tasks": ("split",),
    "task": ("split", "index"),
    "task_range": ("split", "start", "stop"),
}


def hostile_requests(rng: random.Random, env_name: str, count: int) -> Iterator[HttpRequest]:
    """`count` hostile HTTP requests to the server's routes (`env_name`: ``tau_env-telecom``)."""
    for _ in range(count):
        route = rng.choice((*_FIELDS, "/mcp", "/state", "/health", "/schema"))
        path = route if route.startswith("/") else f"/{env_name}/{route}"
        if route in ("/state", "/health", "/schema") and rng.random() < 0.7:
            yield HttpRequest("GET", path, None, None)
            continue
        fields = _FIELDS.get(route, ("jsonrpc", "method", "params", "id"))
        body = _body(rng, fields)
        content_type = rng.choice(
            ("application/json",) * 6 + ("text/plain", "application/x-www-form-urlencoded", None)
        )
        yield HttpRequest("POST", path, content_type, body)


def _body(rng: random.Random, fields: tuple[str, ...]) -> bytes:
    kind = rng.randrange(8)
    if kind == 0:
        return rng.choice((b"", b"{", b"[1, 2", b"\xff\xfe", b'{"seed": 1}\x00', b"\xed\xa0\x80"))
    if kind == 1:
        return hostile_json(rng).encode()
    chosen = rng.sample(fields, rng.randrange(1, len(fields) + 1))
    pairs = [
        f'"{name}":{_action(rng) if name == "action" else hostile_json(rng)}' for name in chosen
    ]
    if "method" in fields and rng.random() < 0.5:  # an MCP session method, as a page sends it
        pairs.append('"method":"openenv/session/create"')
    return ("{" + ",".join(pairs) + "}").encode()


def _action(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return f'{{"content":{hostile_json(rng)}}}'
    call = f'{{"function":{{"name":{hostile_json(rng)},"arguments":{hostile_json(rng)}}}}}'
    return f'{{"tool_calls":[{call}]}}'


def _tool_call(name: str, arguments: str) -> str:
    call = f'{{"function":{{"name":"{name}","arguments":{arguments}}}}}'
    return f'{{"type":"step","data":{{"tool_calls":[{call}]}}}}'


def worst_steps(rng: random.Random, tools: tuple[str, ...]) -> str:
    """A step calling one of `tools` with a hostile argument (a `WORST_PATTERNS` one if grep)."""
    name = rng.choice(tools)
    if name == "grep":
        pattern = json.dumps(rng.choice(WORST_PATTERNS))
        return _tool_call(name, f'{{"pattern":{pattern}}}')
    return _tool_call(name, f'{{"{rng.choice(("query", "user_id", "x"))}":{hostile_json(rng)}}}')


_MESSAGES: tuple[Callable[[random.Random, tuple[str, ...]], str | bytes], ...] = (
    lambda rng, tools: f'{{"type":"reset","data":{hostile_json(rng)}}}',
    lambda rng, tools: f'{{"type":"step","data":{_action(rng)}}}',
    lambda rng, tools: f'{{"type":"step","data":{hostile_json(rng)}}}',
    lambda rng, tools: worst_steps(rng, tools),
    lambda rng, tools: f'{{"type":"state","data":{hostile_json(rng)}}}',
    lambda rng, tools: (
        '{"type":"mcp","data":{"jsonrpc":"2.0","method":"openenv/session/close",'
        '"params":{"session_id":"00000000-0000-0000-0000-000000000000"},"id":1}}'
    ),
    lambda rng, tools: f'{{"type":{hostile_json(rng)}}}',
    lambda rng, tools: hostile_json(rng),
    lambda rng, tools: rng.choice(("", "{", "not json", '{"type":"step"')),
    lambda rng, tools: b'{"type":"state"}',  # a binary frame
)


def hostile_ws_messages(
    rng: random.Random, count: int, tools: tuple[str, ...] = ("grep",)
) -> Iterator[str | bytes]:
    """`count` hostile WebSocket messages (text, or bytes for a binary frame).

    A step that names a tool calls one of the agent's `tools`.
    """
    for _ in range(count):
        yield rng.choice(_MESSAGES)(rng, tools)
