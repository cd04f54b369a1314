"""Every featurized view: gymnasium ids, vector envs, both checkers, hidden task ids, speed-free."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env

import tau_env.wrappers  # noqa: F401  (registers the ids)
from tau_env.baselines.rl.desk_manual import DeskPolicy
from tau_env.baselines.rl.evaluate import evaluate
from tau_env.wrappers.registration import FEATURIZED_DOMAINS, featurized_gym_id
from tau_env.wrappers.rl import make_featurized_env
from tests import extras
from tests.baselines.test_sb3_train import require

DOMAINS = pytest.mark.parametrize("domain", FEATURIZED_DOMAINS)


@DOMAINS
def test_gym_id__makes_the_featurized_view(domain):
    env = gymnasium.make(featurized_gym_id(domain))
    features, info = env.reset(seed=0)
    assert env.observation_space.contains(features)
    assert info["action_mask"].shape == (env.action_space.n,)
    assert "task_id" not in info
    assert featurized_gym_id(domain) == f"tau_env/{domain.title()}Featurized-v0"


@DOMAINS
def test_gymnasium_check_env__passes(domain):
    gymnasium_check_env(make_featurized_env(domain, split="test").unwrapped, skip_render_check=True)


@DOMAINS
def test_sb3_check_env__passes(domain):
    env_checker = require("stable_baselines3.common.env_checker")
    env_checker.check_env(
        make_featurized_env(domain, split="test"), warn=True, skip_render_check=True
    )


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_make_vec__works_without_extra_arguments(mode):
    envs = gymnasium.make_vec(featurized_gym_id("telecom"), num_envs=2, vectorization_mode=mode)
    try:
        features, info = envs.reset(seed=0)
        assert features.shape == (2, envs.single_observation_space.shape[0])
        for _ in range(25):
            masks = info["action_mask"]
            actions = np.array([np.flatnonzero(mask)[0] for mask in masks])
            features, rewards, terminated, _, info = envs.step(actions)
        assert rewards.shape == terminated.shape == (2,)
        assert "task_id" not in info
    finally:
        envs.close()


def test_styles__reach_the_featurized_view_through_gymnasium():
    env = gymnasium.make(featurized_gym_id("telecom"), split="test", style="paraphrase")
    env.reset(seed=0)
    user = env.unwrapped.env.user
    assert user.style.name == "paraphrase" and not user.style.structured_requests


UNCOVERED = {
    "retail": {},
    "airline": {
        "book_one_way": "no booking template (the view can only refuse or transfer bookings)",
        "book_round_trip": "no booking template",
        "book_one_stop": "no booking template",
        "change_flight": "no flight-change template",
        "cabin_change": "no cabin-change template",
        "compensation_delayed": "the certificate template pays the cancelled-flight amount only",
    },
}
"""Families the desk views' templates cannot solve, with the reason (excluded below)."""


@pytest.mark.parametrize("domain", ["retail", "airline"])
def test_desk_manual_policy__solves_the_families_its_templates_cover(domain):
    """The retail and airline views are enough for a hand-written policy on every task of a
    family their templates cover (under the built-in strict grading)."""
    env = make_featurized_env(domain, split="test")
    domain_tasks = env.env.aec.tasks
    ids = [task.id for task in domain_tasks if task.family not in UNCOVERED[domain]]
    assert len(ids) >= 0.6 * len(domain_tasks)
    evaluation = evaluate(DeskPolicy(env.feature_names, env.template_names), env, ids)
    failed = [task_id for task_id, rewards in evaluation.rewards.items() if rewards[0] < 1.0]
    assert failed == []


def test_unknown_domain__is_a_clear_error():
    with pytest.raises(ValueError, match="no featurized view for domain 'mock'"):
        make_featurized_env("mock")


@DOMAINS
def test_sb3_make_vec_env__makes_each_featurized_id(domain):
    # Issue 55 item 1: SB3 asks for render_mode="rgb_array" and falls back only on a
    # TypeError; the views raised a ValueError, so make_vec_env failed on every id.
    env_util = extras.require("stable_baselines3.common.env_util", "rl")
    envs = env_util.make_vec_env(featurized_gym_id(domain), n_envs=2, seed=0)
    try:
        features = envs.reset()
        assert features.shape == (2, envs.observation_space.shape[0])
        _, rewards, dones, _ = envs.step(np.zeros(2, dtype=np.int64))
        assert rewards.shape == dones.shape == (2,)
    finally:
        envs.close()


@DOMAINS
def test_render__gives_the_conversation_in_a_text_mode_and_refuses_images(domain):
    env = gymnasium.make(featurized_gym_id(domain), render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert text.startswith("assistant: ") and "\nuser: " in text
    gymnasium_check_env(env.unwrapped)  # the render check included
    with pytest.raises(TypeError, match=r"render_mode must be one of \['ansi', 'human'\]"):
        gymnasium.make(featurized_gym_id(domain), render_mode="rgb_array")
    quiet = gymnasium.make(featurized_gym_id(domain))
    quiet.reset(seed=0)
    assert quiet.render() is None  # no render mode: nothing rendered
