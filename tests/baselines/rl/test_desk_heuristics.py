"""The trivial desk heuristics: what each does, and that the view does not reward them much."""

import pytest

from tau_env.baselines.rl.desk_heuristics import desk_trivial_policies
from tau_env.baselines.rl.desk_manual import DeskPolicy
from tau_env.baselines.rl.evaluate import evaluate
from tau_env.wrappers.rl import make_featurized_env
from tests.families import task_of


def _play(env, policy, task_id):
    features, _ = env.reset(seed=0, options={"task_id": task_id})
    names, done, reward = [], False, 0.0
    while not done:
        index = policy(features, env.action_masks())
        names.append(env.template_names[index])
        features, reward, terminated, truncated, _ = env.step(index)
        done = terminated or truncated
    return names, reward


def test_names():
    env = make_featurized_env("retail", split="test")
    assert list(desk_trivial_policies(env.feature_names, env.template_names)) == [
        "transfer_at_once",
        "mask_order",
        "look_up_then_refuse",
        "look_up_then_tell",
        "look_up_then_transfer",
    ]


@pytest.mark.parametrize("domain", ["airline", "retail"])
def test_transfer_at_once__transfers_first(domain):
    env = make_featurized_env(domain, split="test")
    policy = desk_trivial_policies(env.feature_names, env.template_names)["transfer_at_once"]
    names, _ = _play(env, policy, env.env.aec.tasks[0].id)
    assert names == ["transfer"]


@pytest.mark.parametrize("then", ["refuse", "tell", "transfer"])
def test_look_up_then__looks_up_like_the_manual_then_never_changes_anything(then):
    env = make_featurized_env("airline", split="base")
    policy = desk_trivial_policies(env.feature_names, env.template_names)[f"look_up_then_{then}"]
    names, reward = _play(env, policy, task_of("airline", "cancel_recent").id)
    assert names[:3] == ["ask_user_id", "find_user", "get_reservation_details"]
    assert "propose" not in names and "act" not in names
    assert then in names
    assert names[-1] in (then, "end")  # the customer may hang up after a refusal
    assert reward == 0.0  # the cancellation was wanted and allowed


@pytest.mark.parametrize("domain", ["airline", "retail"])
def test_every_heuristic__stays_well_below_the_manual_policy(domain):
    env = make_featurized_env(domain, split="test")
    ids = [task.id for task in env.env.aec.tasks]
    manual = evaluate(DeskPolicy(env.feature_names, env.template_names), env, ids).pass_hat(1)
    for name, policy in desk_trivial_policies(env.feature_names, env.template_names).items():
        score = evaluate(policy, env, ids).pass_hat(1)
        assert score <= manual - 0.3, name
