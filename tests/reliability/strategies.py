"""Hypothesis strategies for actions, valid and hostile, built from a domain's own tools."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from tau_env import CallTool, SendMessage, Stop
from tau_env.domain import Domain
from tau_env.messages import STOP_TOKENS, RequestedToolCall, Side, UserRequest

JUNK_TEXT = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        ["", " ", "\x00", "é" * 3, "🤖", "null", "{}", "[", "'; DROP TABLE x;--", "\u202e\ufeff"]
    ),
    st.just("x" * 20_000),
)
JUNK_VALUE = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.integers(min_value=2**63, max_value=2**80),
        st.floats(allow_nan=True),
        JUNK_TEXT,
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)
HOSTILE_NAMES = [
    "",
    "nope",
    "__class__",
    "__init__",
    "reference_hash",
    "os.system",
    "é🤖",
    "x" * 5000,
]
"""Tool names no side has: empty, dunder, private attributes of the world, paths, huge."""


def known_values(domain: Domain) -> dict[str, list[Any]]:
    """Argument values seen in the domain's gold plans, by argument name (plausible inputs)."""
    values: dict[str, list[Any]] = {}
    for task in domain.tasks[:400]:
        for action in task.gold_actions:
            for key, value in action.arguments.items():
                values.setdefault(key, []).append(value)
    return values


def arguments_for(
    domain: Domain, side: Side, name: str, seen: dict[str, list[Any]] | None = None
) -> st.SearchStrategy[dict[str, Any] | str]:
    """Arguments for a call of `name`: mostly plausible, often missing, extra or mistyped."""
    spec = domain.toolbox.tools(side).get(name)
    parameters = spec.parameter_names if spec else ()
    seen = known_values(domain) if seen is None else seen

    def value(parameter: str) -> st.SearchStrategy[Any]:
        plausible = seen.get(parameter)
        if plausible:
            return st.one_of(st.sampled_from(plausible), JUNK_VALUE)
        return JUNK_VALUE

    keyed = st.fixed_dictionaries({}, optional={p: value(p) for p in parameters})
    extra = st.dictionaries(st.text(min_size=1, max_size=8), JUNK_VALUE, max_size=2)
    as_dict = st.builds(lambda a, b: {**a, **b}, keyed, st.one_of(st.just({}), extra))
    as_json = as_dict.map(_json_or_junk)
    raw_json = st.one_of(
        JUNK_TEXT, st.sampled_from(['{"a": ', "[1, 2]", "{}", "null", "1e999", '{"a": NaN}'])
    )
    # Every argument the gold plans give a value for, with such a value: calls that can succeed.
    plausible = st.fixed_dictionaries(
        {p: st.sampled_from(seen[p]) for p in parameters if seen.get(p)}
    )
    return st.one_of(plausible, as_dict, plausible, as_dict, as_json, raw_json)


def _json_or_junk(arguments: dict[str, Any]) -> dict[str, Any] | str:
    import json

    try:
        return json.dumps(arguments)
    except (TypeError, ValueError):
        return arguments


def hostile_request(domain: Domain) -> st.SearchStrategy[UserRequest]:
    """A structured request (agent -> user) naming real and invented user tools and facts."""
    names = list(domain.toolbox.tools("user").names) + HOSTILE_NAMES
    call = st.builds(
        RequestedToolCall,
        name=st.sampled_from(names),
        arguments=st.dictionaries(st.text(max_size=8), JUNK_VALUE, max_size=3),
    )
    facts = st.lists(
        st.one_of(st.sampled_from(["user_id", "email", "phone_number", "zip"]), JUNK_TEXT),
        max_size=3,
    )
    return st.builds(UserRequest, tool_calls=st.lists(call, max_size=3), facts=facts)


_KINDS = ["tool"] * 8 + ["message"] * 3 + ["stop", "sample", "layout", "layout"]
"""Action forms by weight: stops and empty messages end an episode, so they are rarer."""


@st.composite
def action_for(
    draw: st.DrawFn, domain: Domain, side: Side, seen: dict[str, list[Any]] | None = None
) -> Any:
    """One action for `side`, in any form `step` accepts.

    Forms: a tool call (valid or not, arguments as a dict or JSON text, any call id), a message
    (junk text, stop tokens, a hostile structured request), a stop, a sample-shaped dict of the
    `Dict` action space, or a dict in the models' own layout.
    """
    kind = draw(st.sampled_from(_KINDS))
    names = list(domain.toolbox.tools(side).names) or ["none"]
    if kind == "tool":
        name = draw(st.one_of(st.sampled_from(names), st.sampled_from(HOSTILE_NAMES)))
        call_id = draw(st.one_of(st.none(), st.sampled_from(["", "call_1", "x" * 3000]), JUNK_TEXT))
        return CallTool(
            name=name, arguments=draw(arguments_for(domain, side, name, seen)), call_id=call_id
        )
    if kind == "message":
        text = draw(JUNK_TEXT)
        if draw(st.integers(0, 9)) == 0:
            text += draw(st.sampled_from(list(STOP_TOKENS.values())))
        request = draw(st.one_of(st.none(), hostile_request(domain)))
        return SendMessage(content=text, request=request)
    if kind == "stop":
        return Stop(reason=draw(st.sampled_from(["done", "transfer", "out_of_scope"])))
    if kind == "layout":
        name = draw(st.sampled_from(names))
        return {
            "kind": "tool_call",
            "name": name,
            "arguments": draw(arguments_for(domain, side, name, seen)),
        }
    return {
        "kind": draw(st.integers(0, 2)),
        "content": draw(JUNK_TEXT),
        "tool": draw(st.integers(-3, 60)),
        "arguments": draw(st.one_of(JUNK_TEXT, arguments_for(domain, side, "", seen).map(str))),
    }


NOT_ACTIONS = st.one_of(
    st.none(),
    JUNK_VALUE,
    st.sampled_from([object(), b"bytes", 3j, [("kind", "stop")], frozenset({"stop"})]),
    st.fixed_dictionaries(
        {"kind": st.sampled_from(["message", "tool_call", "stop", "dance", "", "MESSAGE"])},
        optional={
            "content": JUNK_VALUE,
            "name": JUNK_VALUE,
            "arguments": JUNK_VALUE,
            "reason": JUNK_VALUE,
            "evil": JUNK_VALUE,
        },
    ),
    st.fixed_dictionaries(
        {},
        optional={
            "kind": st.one_of(st.integers(-5, 8), st.floats(), st.none(), st.booleans()),
            "content": JUNK_VALUE,
            "tool": st.one_of(st.integers(-(2**70), 2**70), JUNK_VALUE),
            "arguments": JUNK_VALUE,
        },
    ),
)
"""Objects that may or may not be actions: `step` either acts or raises `InvalidAction`."""


FUZZ_SETTINGS = settings(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
"""What every fuzz test runs with (each sets its own number of examples): reproducible, no
example database, no deadline, slow or large data allowed."""
