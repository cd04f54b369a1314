"""No argument value or shape makes a tool call raise (issue 42, item 3).

First the escapes the issue found, each pinned with the text the reference gives (it answers
any exception inside a tool with ``Error: <message>``, spec §2.2); then a fuzz over every tool of
every domain on built-in data (both sides, telecom's user tools, banking's user tools and every
discoverable tool of its catalog): each hostile value in place of each argument, then
hypothesis mixing them with missing, extra and mistyped arguments, as dicts and as JSON text.
After every call `hostile_values.call` checks that nothing raised, the trajectory holds the call
and its result, an error is counted and changed nothing; each episode then ends and is graded.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tau_env
from tau_env.actions import Stop
from tau_env.domain import load_domain
from tau_env.errors import InvalidAction
from tau_env.tools.nesting import CUT_MARK, MAX_ARGUMENT_DEPTH
from tests.reliability.hostile_values import (
    DEPTH,
    HOSTILE_JSON,
    HOSTILE_VALUE,
    HOSTILE_VALUES,
    HUGE,
    arguments_text,
    call,
    nested_dict,
    take_floor,
)
from tests.reliability.strategies import known_values
from tests.reliability.tally import count

DOMAINS = ["mock", "airline", "retail", "telecom", "banking_knowledge"]
EXAMPLES_PER_TOOL = 6


def _env(domain: str, task_id: str | None = None):
    """A fresh episode on built-in data, with limits no fuzz reaches."""
    env = tau_env.make_env(domain, max_steps=10**7, max_errors=10**7).unwrapped
    env.reset(seed=0, options=None if task_id is None else {"task_id": task_id})
    return env


def _finish(env) -> None:
    """The agent stops: the episode ends and is graded (a reward for both sides)."""
    take_floor(env, "agent")
    env.step(Stop())
    assert env.conversation.done and all(env.terminations.values())
    assert set(env.rewards) == {"agent", "user"}


def _gold(domain: str, tool: str) -> tuple[str, dict]:
    """The first task whose gold plan calls `tool`, and that call's arguments."""
    for task in load_domain(domain).tasks:
        for action in task.gold_actions:
            if action.name == tool:
                return task.id, dict(action.arguments)
    raise AssertionError(f"no built-in gold plan of {domain} calls {tool}")


# -- the escapes of the issue ----------------------------------------------------------------


def test_400_digit_integer__telecom_refuel_data_answers_as_the_reference():
    task_id, arguments = _gold("telecom", "refuel_data")
    env = _env("telecom", task_id)
    result = call(env, "agent", "refuel_data", {**arguments, "gb_amount": HUGE})
    assert (result.content, result.error) == ("Error: int too large to convert to float", True)


def test_400_digit_integer__airline_send_certificate_answers_as_the_reference():
    # The reference builds its certificate model from the int, which refuses it.
    task_id, arguments = _gold("airline", "send_certificate")
    env = _env("airline", task_id)
    result = call(env, "agent", "send_certificate", {**arguments, "amount": HUGE})
    assert result.error
    assert result.content.startswith("Error: 1 validation error for Certificate\namount\n")


def test_400_digit_integer__banking_annual_income_answers_as_the_reference():
    task_id, arguments = _gold("banking_knowledge", "apply_for_credit_card")
    env = _env("banking_knowledge", task_id)
    result = call(env, "user", "apply_for_credit_card", {**arguments, "annual_income": HUGE})
    assert (result.content, result.error) == ("Error: int too large to convert to float", True)


@pytest.mark.parametrize(
    ("tool", "argument"),
    [
        ("apply_for_credit_card", "customer_name"),
        ("submit_referral", "user_id"),
        ("submit_transaction", "merchant_name"),
    ],
)
def test_lone_surrogate__banking_user_tools_answer_as_the_reference(tool, argument):
    # Their record ids hash the text's UTF-8 bytes, which a lone surrogate does not have.
    task_id, arguments = _gold("banking_knowledge", "apply_for_credit_card")
    env = _env("banking_knowledge", task_id)
    if tool == "apply_for_credit_card":
        sent = {**arguments, argument: "\ud800"}
    elif tool == "submit_referral":
        sent = {"user_id": "\ud800", "account_type": "Finch Checking"}
    else:
        sent = {
            "user_id": "u1",
            "credit_card_type": arguments["card_type"],
            "merchant_name": "\ud800",
            "amount": 12.5,
            "category": "Dining",
        }
    result = call(env, "user", tool, sent)
    assert result.error
    assert result.content.startswith("Error: 'utf-8' codec can't encode character '\\ud800'")


@pytest.mark.parametrize("form", ["dict", "json text"])
def test_arguments_nested_5000_deep__are_refused_and_recorded_cut(form):
    task_id, arguments = _gold("telecom", "refuel_data")
    env = _env("telecom", task_id)
    if form == "dict":
        sent: dict | str = {**arguments, "line_id": nested_dict(DEPTH)}
    else:
        sent = '{"line_id": ' + '{"a":' * DEPTH + "{}" + "}" * DEPTH + "}"
    result = call(env, "agent", "refuel_data", sent)
    assert result.error
    assert result.content.endswith(f"nested more than {MAX_ARGUMENT_DEPTH} levels deep")
    recorded = env.conversation.trajectory[-2].tool_calls[0].arguments
    if form == "dict":  # kept up to the limit, then cut
        inner = recorded["line_id"]
        for _ in range(MAX_ARGUMENT_DEPTH - 1):
            inner = inner["a"]
        assert inner == CUT_MARK
    else:  # the text as sent
        assert recorded == {"_raw_arguments": sent}
    env.conversation.trajectory[-2].model_dump_json()  # writable by the store
    _finish(env)
    assert env.conversation.num_errors == 1


def test_kind_inf__is_an_invalid_action_not_an_overflow():
    env = _env("mock")
    take_floor(env, "agent")
    length = len(env.conversation.trajectory)
    for kind in (float("inf"), float("-inf"), float("nan")):
        with pytest.raises(InvalidAction, match="'kind' and 'tool' must be integers"):
            env.step({"kind": kind, "content": "", "tool": 0, "arguments": "{}"})
    with pytest.raises(InvalidAction, match=r"'kind' must be in \[0, 3\)"):
        env.step({"kind": HUGE, "content": "", "tool": 0, "arguments": "{}"})
    with pytest.raises(InvalidAction):
        env.step({"kind": 1, "content": "", "tool": float("inf"), "arguments": "{}"})
    assert len(env.conversation.trajectory) == length


# -- every tool of every domain ----------------------------------------------------------------


def _tools(domain) -> list[tuple[str, str]]:
    return [(side, name) for side in ("agent", "user") for name in domain.toolbox.tools(side).names]


def _prepared(domain_name: str):
    """The loaded domain, the argument values its data holds, and a fresh env on it."""
    domain = load_domain(domain_name)
    return domain, known_values(domain), _env(domain_name)


def _plausible(domain, seen, side: str, name: str) -> dict:
    spec = domain.toolbox.tools(side).get(name)
    return {p: seen[p][0] for p in spec.parameter_names if seen.get(p)}


@pytest.mark.parametrize("domain_name", DOMAINS)
def test_every_tool__each_hostile_value_in_each_argument(domain_name):
    domain, seen, env = _prepared(domain_name)
    calls: Counter[str] = Counter()
    for side, name in _tools(domain):
        spec = domain.toolbox.tools(side).get(name)
        base = _plausible(domain, seen, side, name)
        for parameter in [*spec.parameter_names, "unexpected"]:
            for value in HOSTILE_VALUES.values():
                call(env, side, name, {**base, parameter: value})
                calls[side] += 1
            for text in HOSTILE_JSON.values():
                sent = {k: json.dumps(v) for k, v in base.items()}
                call(env, side, name, arguments_text({**sent, parameter: text}))
                calls[side] += 1
    _finish(env)  # the episode ends and is graded, whatever the calls left in the world
    for side, n in calls.items():
        count("hostile argument values, every tool (built-in)", f"{domain_name} {side}", n)
    assert calls["agent"] > 0 and (calls["user"] > 0) == bool(domain.toolbox.tools("user"))


@pytest.mark.parametrize("domain_name", DOMAINS)
def test_every_tool__fuzzed_hostile_arguments(domain_name):
    domain, seen, env = _prepared(domain_name)
    calls: Counter[str] = Counter()

    def fuzz(side: str, name: str) -> None:
        spec = domain.toolbox.tools(side).get(name)
        plausible = {p: st.sampled_from(seen[p]) for p in spec.parameter_names if seen.get(p)}
        value = {p: st.one_of(plausible.get(p, HOSTILE_VALUE), HOSTILE_VALUE) for p in plausible}
        keyed = st.fixed_dictionaries(
            {},
            optional={p: value.get(p, HOSTILE_VALUE) for p in spec.parameter_names},
        )
        extra = st.dictionaries(st.sampled_from(["x", "self", "__class__"]), HOSTILE_VALUE)
        arguments = st.builds(lambda a, b: {**b, **a}, keyed, extra)
        texts = st.dictionaries(
            st.sampled_from([*spec.parameter_names, "x"]),
            st.sampled_from(list(HOSTILE_JSON.values())),
        ).map(arguments_text)

        @settings(
            max_examples=EXAMPLES_PER_TOOL,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(sent=st.one_of(arguments, texts))
        def one(sent):
            call(env, side, name, sent)
            calls[side] += 1

        one()

    for side, name in _tools(domain):
        fuzz(side, name)
    _finish(env)
    for side, n in calls.items():
        count("fuzzed hostile arguments, every tool (built-in)", f"{domain_name} {side}", n)
    assert sum(calls.values()) >= len(_tools(domain)) * EXAMPLES_PER_TOOL // 2


def test_banking_discoverable_tools__each_hostile_json_value_in_each_argument():
    # Discoverable tools take their arguments as a JSON string: the agent's are unlocked and
    # called, the user's given by the agent and called by the user.
    domain = load_domain("banking_knowledge")
    env = _env("banking_knowledge")
    catalog = env.conversation.world.agent_db.tool_catalog
    calls: Counter[str] = Counter()
    for tool_name, entry in catalog.items():
        parameters = [p.name for p in entry.parameters]
        if entry.side == "agent":
            call(env, "agent", "unlock_discoverable_agent_tool", {"agent_tool_name": tool_name})
        for parameter in [*parameters, "unexpected"]:
            for text in HOSTILE_JSON.values():
                sent = arguments_text({**{p: '"x"' for p in parameters}, parameter: text})
                if entry.side == "agent":
                    arguments = {"agent_tool_name": tool_name, "arguments": sent}
                    call(env, "agent", "call_discoverable_agent_tool", arguments)
                else:
                    given_ = {"discoverable_tool_name": tool_name, "arguments": sent}
                    call(env, "agent", "give_discoverable_user_tool", given_)
                    call(env, "user", "call_discoverable_user_tool", given_)
                calls[entry.side] += 1
    _finish(env)
    assert domain.toolbox.tools("user").get("call_discoverable_user_tool") is not None
    for side, n in calls.items():
        count("hostile JSON values, banking discoverable tools (built-in)", side, n)
    assert calls["agent"] > 0 and calls["user"] > 0
