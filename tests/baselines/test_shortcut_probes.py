"""The shortcut probes do what their names say, reading only what any agent reads."""

from dataclasses import dataclass
from types import SimpleNamespace

import pytest

import tau_env
from tau_env.baselines.shortcut_probes import (
    ASK_IDS,
    NUMBERS,
    REFUSAL,
    IdReadingProbe,
    given_labels,
    said_values,
    shortcut_factories,
)
from tau_env.episode_runner import run_episode
from tau_env.messages import AssistantMessage
from tau_env.transfer import TRANSFER_ANNOUNCEMENT, TRANSFER_TOOL
from tau_env.wrappers.users import ScriptedUser


@pytest.fixture(scope="module")
def airline():
    env = tau_env.make_env("airline")
    return env, ScriptedUser.factory(env.unwrapped.domain, seed=0)


def _refusal(domain):
    """A task whose gold plan looks a reservation up and changes nothing (by its structure)."""
    return next(
        task
        for task in domain.tasks
        if [a.name for a in task.gold_actions] == ["get_user_details", "get_reservation_details"]
    )


def _play(env, user, probe, task):
    player = shortcut_factories(env.unwrapped.domain)[probe]
    return run_episode(env, player, user, task_id=task.id, seed=0)


def _moves(result):
    return [m for m in result.trajectory[1:] if isinstance(m, AssistantMessage)]


def _calls(result):
    return [c for m in _moves(result) for c in m.tool_calls or ()]


def test_recite__calls_read_tools_without_arguments_then_recites_the_policy(airline):
    env, user = airline
    domain = env.unwrapped.domain
    result = _play(env, user, "recite", _refusal(domain))
    kinds = {spec.name: spec.kind for spec in domain.toolbox.tools("agent")}
    calls = _calls(result)
    assert calls and all(c.arguments == {} and kinds[c.name] == "read" for c in calls)
    text = next(m.content for m in _moves(result) if m.content)
    assert text.startswith(domain.policy.strip()[:200]) and text.endswith(NUMBERS)
    assert result.reward == 0.0


def test_dump__says_every_looked_up_value_with_two_decimals(airline):
    env, user = airline
    result = _play(env, user, "dump", _refusal(env.unwrapped.domain))
    moves = _moves(result)
    assert moves[0].content == ASK_IDS
    results = [m.content for m in result.trajectory if m.role == "tool" and not m.error]
    assert any('"reservation_id"' in r for r in results)  # a real look-up
    texts = [m.content for m in moves if m.content and not m.tool_calls]
    assert said_values(results) in texts
    assert not any(c.name == TRANSFER_TOOL for c in _calls(result))
    assert result.reward == 0.0


def test_said_values__numbers_with_their_two_decimal_spelling():
    assert said_values(['{"amount": 22.3, "ids": ["a1"]}', "Balance 7 left"]) == (
        "amount: 22.3 (22.30)\nids: a1\nBalance 7 left\n7.00"
    )


def _play_on_a_verified_bank_task(probe: str):
    """(the built-in bank, `probe`'s episode on its first task whose plan logs a verification)."""
    env = tau_env.make_env("banking_knowledge")
    domain = env.unwrapped.domain
    user = ScriptedUser.factory(domain, seed=0)
    task = next(t for t in domain.tasks if t.gold_actions[0].name == "log_verification")
    return domain, _play(env, user, probe, task)


def test_verify_refuse_transfer__logs_a_verification_then_one_transfer_per_reason():
    domain, result = _play_on_a_verified_bank_task("verify_refuse_transfer")
    calls = _calls(result)
    assert "log_verification" in [c.name for c in calls]
    schema = next(t for t in domain.toolbox.tools("agent") if t.name == TRANSFER_TOOL)
    reasons = schema.openai_schema()["function"]["parameters"]["properties"]["reason"]["enum"]
    assert [c.arguments["reason"] for c in calls if c.name == TRANSFER_TOOL] == reasons
    assert REFUSAL in _moves(result)[-1].content
    assert result.reward == 0.0  # transfers the gold plan does not make


def test_policy_tools__unlocks_and_calls_each_tool_the_policy_names_then_refuses():
    domain, result = _play_on_a_verified_bank_task("policy_tools")
    calls = [(c.name, c.arguments.get("agent_tool_name")) for c in _calls(result)]
    named = "list_customer_accounts_4410"  # the policy's example of a discoverable tool
    assert named in domain.policy
    at = calls.index(("unlock_discoverable_agent_tool", named))
    assert calls[at + 1] == ("call_discoverable_agent_tool", named)
    assert REFUSAL in [m.content for m in _moves(result)]
    assert result.reward == 0.0


def test_transfer_each_turn__a_transfer_before_every_message(airline):
    env, user = airline
    result = _play(env, user, "transfer_each_turn", _refusal(env.unwrapped.domain))
    moves = _moves(result)
    texts = [i for i, m in enumerate(moves) if m.content and not m.tool_calls]
    for index in texts:
        assert moves[index - 1].tool_calls[0].name == TRANSFER_TOOL
    assert TRANSFER_ANNOUNCEMENT in moves[texts[-1]].content


def test_topic_recital__says_only_policy_paragraphs(airline):
    env, user = airline
    domain = env.unwrapped.domain
    result = _play(env, user, "topic_recital", _refusal(domain))
    said = _moves(result)[-1].content
    paragraphs = said.split("\n\n")
    assert paragraphs and all(p in domain.policy for p in paragraphs)
    assert len(said) < len(domain.policy)


@dataclass(frozen=True)
class _Labelled:
    side: str
    instructions: str
    tools: list
    tool_names: tuple
    label: str


def test_task_id__finds_nothing_in_what_an_agent_is_given_and_refuses():
    context = SimpleNamespace(side="agent", instructions="policy", tools=[], tool_names=())
    assert given_labels(context) == []
    probe = IdReadingProbe()
    view = SimpleNamespace(history=[])
    assert probe.act(view, context).content == REFUSAL
    assert probe.act(view, context).kind == "stop"


def test_task_id__acts_on_the_words_of_a_label_it_is_given():
    tool = {
        "function": {
            "name": "resume_line",
            "parameters": {
                "properties": {"customer_id": {"type": "string"}},
                "required": ["customer_id"],
            },
        }
    }
    context = _Labelled(
        "agent",
        "Ask the customer to reseat_sim_card when the SIM is loose.",
        [tool],
        ("resume_line",),
        "[x]unseat_sim_card|line_suspension_resume[CUSTOMER:C2001]",
    )
    assert given_labels(context) == [context.label]
    probe = IdReadingProbe()
    view = SimpleNamespace(history=[])
    call = probe.act(view, context)
    assert call.name == "resume_line" and call.arguments == {"customer_id": "C2001"}
    request = probe.act(view, context)
    assert [c.name for c in request.request.tool_calls] == ["reseat_sim_card"]
