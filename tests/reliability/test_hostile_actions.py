"""Things that are not actions, and hostile agents against the offline users (issue 9, item 1).

`step` takes an action model, a sample of the `Dict` action space or a dict in the models'
layout; anything else raises `InvalidAction` and changes nothing (not the world, not the
transcript, not the turn, not the counters), after which the episode plays on normally. And
the programmatic users (scripted, gold) answer any agent behaviour, however hostile, with a
valid action: a fuzzed agent cannot crash them.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tau_env
from tau_env.actions import Action, CallTool, SendMessage, Stop, decode_action
from tau_env.domain import load_domain
from tau_env.errors import InvalidAction
from tau_env.wrappers.users import GoldUser, ScriptedUser
from tests.conftest import domain_sources, each_source
from tests.reliability.strategies import FUZZ_SETTINGS, NOT_ACTIONS, action_for, known_values
from tests.reliability.tally import count
from tests.reliability.test_action_fuzz import check_invariants, label_of


def _snapshot(env) -> tuple:
    conversation = env.conversation
    return (
        len(conversation.trajectory),
        conversation.step_count,
        conversation.num_errors,
        conversation.termination,
        env.agent_selection,
        tuple(env.agents),
        tuple(len(view.history) for view in conversation.views.values()),
        tuple(len(view.inbox) for view in conversation.views.values()),
    )


@pytest.mark.parametrize("source", domain_sources()[:5], ids=lambda s: label_of(*s))
def test_non_actions__raise_invalid_action_and_change_nothing(source):
    domain_name, data_dir = source
    env = tau_env.make_env(domain_name, data_dir=data_dir, max_errors=1000).unwrapped
    task_id = env.tasks[0].id
    outcomes: Counter[str] = Counter()

    @FUZZ_SETTINGS
    @given(junk=st.lists(NOT_ACTIONS, min_size=1, max_size=6), seed=st.integers(0, 99))
    def feed(junk, seed):
        env.reset(seed=seed, options={"task_id": task_id})
        for item in junk:
            if env.conversation.done:  # an accepted stop ({"kind": "stop"} is one) ended it
                break
            world = env.conversation.world
            before_world, before = world.fork(), _snapshot(env)
            try:
                env.step(item)
            except InvalidAction as error:
                assert str(error), "an InvalidAction must say what is wrong"
                assert _snapshot(env) == before, f"{item!r} was refused but changed the episode"
                assert world.differences(before_world) == []
                outcomes["refused"] += 1
            else:
                outcomes["accepted as an action"] += 1
            check_invariants(env)
        if not env.conversation.done:  # still usable: a proper stop ends it as a stop
            env.step(Stop())
            assert env.conversation.termination.value.endswith("_stop")

    feed()
    for outcome, n in outcomes.items():
        count("non-actions fed to step", f"{label_of(*source)} {outcome}", n)
    assert outcomes["refused"] > 50, outcomes


def test_space_bounds__huge_texts_and_invented_tool_names_are_clipped_in_observations():
    env = tau_env.make_env("mock", max_text_length=100).unwrapped
    env.reset(seed=0, options={"task_id": "create_task"})
    env.step(SendMessage(content="é" * 500))  # the user's message, longer than the space allows
    assert env.observation_space("agent").contains(env.observe("agent"))
    assert env.view("agent").history[-1].content == "é" * 500  # the message itself is whole
    env.step(CallTool(name="t" * 5000, arguments={}))
    observed = env.observe("agent")["messages"][-1]
    assert observed["error"] == 1 and len(observed["tool_name"]) == 256
    assert env.observation_space("agent").contains(env.observe("agent"))
    assert env.conversation.trajectory[-1].name == "t" * 5000


def _users(domain):
    return {"scripted": ScriptedUser.factory(domain), "gold": GoldUser.factory(domain)}


@each_source()
@pytest.mark.parametrize("user_kind", ["scripted", "gold"])
def test_fuzzed_agent__offline_users_always_answer_with_a_valid_action(
    domain_name, data_dir, user_kind
):
    domain = load_domain(domain_name, data_dir)
    seen = known_values(domain)
    env = tau_env.make_env(domain_name, data_dir=data_dir, max_steps=40, max_errors=1000).unwrapped
    task_ids = [task.id for task in env.tasks]
    factory = _users(domain)[user_kind]
    turns: Counter[str] = Counter()

    @settings(FUZZ_SETTINGS, max_examples=25)
    @given(data=st.data(), task_id=st.sampled_from(task_ids), seed=st.integers(0, 2**16))
    def play(data, task_id, seed):
        env.reset(seed=seed, options={"task_id": task_id})
        user = factory(env.task)
        for _ in range(60):
            if not env.agents:
                break
            side = env.agent_selection
            if env.terminations[side] or env.truncations[side]:
                env.step(None)
                continue
            if side == "user":
                action = user.act(env.view("user"), env.context("user"))
                assert isinstance(decode_action(action, []), Action)
                turns["user"] += 1
            else:
                action = data.draw(action_for(domain, "agent", seen), label="agent action")
                turns["agent"] += 1
            env.step(action)
            check_invariants(env)
        assert not env.agents, "the episode did not end"

    play()
    label = f"{label_of(domain_name, data_dir)} vs {user_kind} user"
    count("fuzzed agent turns against an offline user", label, turns["agent"])
    assert turns["user"] > 25 and turns["agent"] > 25, turns
