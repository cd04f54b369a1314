"""The seed rule: every participant of an episode gets the episode's seed (or keeps its own)."""

from __future__ import annotations

from functools import partial

import tau_env
from tau_env.episode_runner import run_episode
from tau_env.participant import build_participant, participant_seed
from tau_env.wrappers.users import ScriptedUser


class Recorder:
    """A participant that notes how it was seeded."""

    def __init__(self, task, seed=None):
        self.built_with = seed
        self.set_to = None

    def set_seed(self, seed):
        self.set_to = seed


class Attribute:
    def __init__(self, task):
        self.seed = None


def test_build_participant__open_seed_keyword_gets_the_episode_seed():
    task = tau_env.make_env("mock").unwrapped.tasks[0]
    assert build_participant(Recorder, task, 7).built_with == 7
    assert build_participant(partial(Recorder, seed=None), task, 7).built_with == 7


def test_build_participant__a_bound_seed_is_kept():
    task = tau_env.make_env("mock").unwrapped.tasks[0]
    pinned = build_participant(partial(Recorder, seed=3), task, 7)
    assert (pinned.built_with, pinned.set_to) == (3, None)


def test_build_participant__others_are_seeded_after_building():
    task = tau_env.make_env("mock").unwrapped.tasks[0]
    assert build_participant(lambda t: Recorder(t), task, 7).set_to == 7
    assert build_participant(Attribute, task, 7).seed == 7


def test_participant_seed__given_or_drawn_by_the_env():
    env = tau_env.make_env("mock")
    env.reset(seed=5)
    assert participant_seed(env, 5) == 5
    drawn = participant_seed(env, None)
    assert drawn == env.unwrapped.episode_seed & 0x7FFFFFFF and 0 <= drawn < 2**31


def test_run_episode__scripted_user_follows_the_seed_unless_pinned():
    env = tau_env.make_env("telecom", split="test_ood")
    task_id = env.unwrapped.tasks[0].id

    def users(factory):
        results = [run_episode(env, _Idle, factory, task_id=task_id, seed=s) for s in range(6)]
        return [[m.content for m in result.trajectory] for result in results]

    following = users(ScriptedUser.factory(env.unwrapped.domain))
    pinned = users(ScriptedUser.factory(env.unwrapped.domain, seed=0))
    assert len({repr(c) for c in following}) > 1
    assert len({repr(c) for c in pinned}) == 1
    assert pinned[0] == following[0]  # seed 0 is seed 0


class _Idle:
    """Asks the user to do things until the user gives up (its replies show its style)."""

    def __init__(self, task):
        self.turns = 0

    def act(self, view, context):
        from tau_env.actions import SendMessage

        self.turns += 1
        return SendMessage(content="Please restart your phone and tell me what you see.")
