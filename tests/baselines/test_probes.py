"""The probe agents do what their names say, and know nothing of the task they play."""

from types import SimpleNamespace

import pytest

import tau_env
from tau_env.baselines.probes import (
    AGREEMENT,
    ID_QUESTION,
    PROBE_NAMES,
    REFUSAL,
    LookupAgent,
    probe_factories,
)
from tau_env.episode_runner import run_episode
from tau_env.messages import AssistantMessage
from tau_env.transfer import TRANSFER_ANNOUNCEMENT, TRANSFER_TOOL
from tau_env.wrappers.users import ScriptedUser
from tests.families import task_of


@pytest.fixture(scope="module")
def airline():
    env = tau_env.make_env("airline")
    return env, ScriptedUser.factory(env.unwrapped.domain, seed=0)


def _play(airline, probe, task_id=None):
    env, user = airline
    player = probe_factories(env.unwrapped.domain)[probe]
    task_id = task_id or task_of("airline", "cancel_refused").id
    return run_episode(env, player, user, task_id=task_id, seed=0)


def _agent_moves(result):
    return [m for m in result.trajectory[1:] if isinstance(m, AssistantMessage)]


def test_probe_names__every_probe_is_built_in_report_order(airline):
    env, _ = airline
    assert list(probe_factories(env.unwrapped.domain)) == list(PROBE_NAMES)
    assert PROBE_NAMES == (
        "refuse",
        "transfer",
        "agree",
        "read_all",
        "random_s0",
        "random_s1",
        "random_s2",
    )


def test_refuse__apologises_then_stops_without_a_tool(airline):
    moves = _agent_moves(_play(airline, "refuse"))
    assert [m.content for m in moves] == [REFUSAL]
    assert not any(m.tool_calls for m in moves)


def test_agree__says_it_is_done_without_a_tool(airline):
    moves = _agent_moves(_play(airline, "agree"))
    assert moves[0].content == AGREEMENT
    assert not any(m.tool_calls for m in moves)


def test_transfer__calls_the_transfer_tool_then_announces_it(airline):
    result = _play(airline, "transfer")
    moves = _agent_moves(result)
    assert moves[0].tool_calls[0].name == TRANSFER_TOOL
    assert moves[1].content == TRANSFER_ANNOUNCEMENT
    assert result.grade.termination.value == "user_stop"  # the user hangs up on the transfer


def test_read_all__calls_only_read_tools_with_what_the_customer_said(airline):
    env, _ = airline
    domain = env.unwrapped.domain
    result = _play(airline, "read_all")
    moves = _agent_moves(result)
    assert moves[0].content == ID_QUESTION
    calls = [c for m in moves for c in m.tool_calls or ()]
    kinds = {spec.name: spec.kind for spec in domain.toolbox.tools("agent")}
    assert calls and {kinds[c.name] for c in calls} == {"read"}
    assert len({c.name for c in calls}) == len(calls)  # each read tool once
    heard = " ".join(m.content or "" for m in result.trajectory if m.role == "user")
    for call in calls:  # every argument is something the customer said (or its words)
        for value in call.arguments.values():
            assert all(word in heard for word in value.split()), (call.name, value)
    assert result.reward == 0.0  # no reason said: the built-in refusal fails


def test_read_all__skips_tools_whose_arguments_it_cannot_fill():
    agent = LookupAgent(read_tools=("get_user_details",))
    schema = {
        "function": {
            "name": "get_user_details",
            "parameters": {"properties": {"user_id": {"type": "string"}}, "required": ["user_id"]},
        }
    }

    view = SimpleNamespace(history=())
    context = SimpleNamespace(tools=[schema], tool_names=("get_user_details",))
    assert agent.act(view, context).content == ID_QUESTION
    assert agent.act(view, context).kind == "message"  # nothing heard: no call, the end
    assert agent.act(view, context).kind == "stop"


@pytest.mark.parametrize("probe", PROBE_NAMES)
def test_probes__play_the_same_whatever_the_grading_criteria_say(airline, probe):
    """Honesty: a probe reads no criteria, so handing it another task's changes nothing."""
    env, user = airline
    domain = env.unwrapped.domain
    task = task_of("airline", "change_refused_basic")
    other = task_of("airline", "cancel_recent")
    grafted = task.model_copy(update={"evaluation_criteria": other.evaluation_criteria})
    player = probe_factories(domain)[probe]
    first = run_episode(env, player, user, task_id=task.id, seed=0)

    def grafted_player(_task, seed=None):  # takes the episode seed and ignores it, as the
        return player(grafted)  # audit's random probes keep their own (a bound seed)

    second = run_episode(env, grafted_player, user, task_id=task.id, seed=0)
    assert [m.model_dump() for m in first.trajectory] == [m.model_dump() for m in second.trajectory]


def test_random_probes__keep_their_own_seeds_whatever_the_episode_seed(airline):
    """run_episode hands participants the episode seed; the random probes bind theirs."""
    first, second = (_play(airline, f"random_s{seed}") for seed in (0, 1))
    assert [m.model_dump() for m in first.trajectory] != [m.model_dump() for m in second.trajectory]
    again = _play(airline, "random_s1")
    assert [m.model_dump() for m in again.trajectory] == [m.model_dump() for m in second.trajectory]
