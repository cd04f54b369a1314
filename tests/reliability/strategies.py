"""Hypothesis strategies for actions, valid and hostile, built from a domain's own tools."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from tau_env import CallTool, SendMessage, Stop
from tau_env.domain import Domain
from tau_env.messages import STOP_TOKENS, Side

JUNK_TEXT = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["", " ", "\x00", "é" * 3, "🤖", "null", "{}", "[", "'; DROP TABLE x;--"]),
    st.just("x" * 20_000),
)
JUNK_VALUE = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), JUNK_TEXT),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


def known_values(domain: Domain) -> dict[str, list[Any]]:
    """Argument values seen in the domain's gold plans, by argument name (plausible inputs)."""
    values: dict[str, list[Any]] = {}
    for task in domain.tasks:
        for action in task.gold_actions:
            for key, value in action.arguments.items():
                values.setdefault(key, []).append(value)
    return values


def arguments_for(domain: Domain, side: Side, name: str) -> st.SearchStrategy[dict[str, Any] | str]:
    """Arguments for a call of `name`: mostly plausible, often missing, extra or mistyped."""
    spec = domain.toolbox.tools(side).get(name)
    parameters = spec.parameter_names if spec else ()
    seen = known_values(domain)

    def value(parameter: str) -> st.SearchStrategy[Any]:
        plausible = seen.get(parameter)
        if plausible:
            return st.one_of(st.sampled_from(plausible), JUNK_VALUE)
        return JUNK_VALUE

    keyed = st.fixed_dictionaries({}, optional={p: value(p) for p in parameters})
    extra = st.dictionaries(st.text(min_size=1, max_size=8), JUNK_VALUE, max_size=2)
    as_dict = st.builds(lambda a, b: {**a, **b}, keyed, st.one_of(st.just({}), extra))
    raw_json = st.one_of(JUNK_TEXT, st.just('{"a": '), st.just("[1, 2]"), st.just("{}"))
    return st.one_of(as_dict, as_dict, as_dict, raw_json)


@st.composite
def action_for(draw: st.DrawFn, domain: Domain, side: Side) -> Any:
    """One action for `side`: a tool call (valid or not), a message, a stop or a space sample."""
    kind = draw(st.sampled_from(["tool", "tool", "tool", "message", "stop", "sample"]))
    if kind == "tool":
        names = list(domain.toolbox.tools(side).names) or ["none"]
        name = draw(
            st.one_of(
                st.sampled_from(names), st.sampled_from(["", "nope", "__class__", "reference_hash"])
            )
        )
        return CallTool(name=name, arguments=draw(arguments_for(domain, side, name)))
    if kind == "message":
        text = draw(JUNK_TEXT)
        if draw(st.integers(0, 9)) == 0:
            text += draw(st.sampled_from(list(STOP_TOKENS.values())))
        return SendMessage(content=text) if text.strip() else SendMessage(content=text or " ")
    if kind == "stop":
        return Stop(reason=draw(st.sampled_from(["done", "transfer", "out_of_scope"])))
    return {
        "kind": draw(st.integers(0, 2)),
        "content": draw(JUNK_TEXT),
        "tool": draw(st.integers(0, 40)),
        "arguments": draw(JUNK_TEXT),
    }
