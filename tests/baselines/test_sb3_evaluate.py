"""Evaluation helpers of the RL baselines (no torch needed): scores, random and manual policies."""

import numpy as np
import pytest

from tau_env.baselines.rl.evaluate import Evaluation, evaluate, predictor_policy, random_policy
from tau_env.baselines.rl.heuristics import trivial_policies
from tau_env.baselines.rl.manual_policy import ManualPolicy
from tau_env.wrappers.rl import make_telecom_featurized_env


@pytest.fixture(scope="module")
def env():
    return make_telecom_featurized_env(split="base")


def test_manual_policy__solves_every_built_in_task_through_the_features(env):
    """The features and templates are enough: the manual, written over them, solves all 480
    (each task's user in the style of its persona)."""
    ids = [task.id for task in env.env.aec.tasks]
    evaluation = evaluate(ManualPolicy(env.feature_names, env.template_names), env, ids)
    failed = [task for task, rewards in evaluation.rewards.items() if rewards[0] < 1]
    assert len(ids) == 480
    assert failed == []
    assert evaluation.turns < env.max_turns


@pytest.mark.parametrize("style", ["structured", "plain", "paraphrase", "novice"])
def test_manual_policy__reads_every_user_style(style):
    """The featurizer reads meaning: quoted, retold, recased or incomplete reports alike."""
    env = make_telecom_featurized_env(split="test_ood", style=style)
    ids = [task.id for task in env.env.aec.tasks]
    evaluation = evaluate(ManualPolicy(env.feature_names, env.template_names), env, ids)
    assert evaluation.pass_hat(1) == 1.0


def test_trivial_policies__fail_most_tasks():
    """Blanket fixing (then transferring or ending) and transferring at once are not rewarded."""
    env = make_telecom_featurized_env(split="test", style="paraphrase")
    ids = [task.id for task in env.env.aec.tasks]
    for name, policy in trivial_policies(env.feature_names, env.template_names).items():
        assert evaluate(policy, env, ids).pass_hat(1) <= 0.3, name


def test_random_policy__only_picks_applicable_templates():
    policy = random_policy(seed=3)
    mask = np.array([False, True, False, True])
    picks = {policy(np.zeros(2, dtype=np.float32), mask) for _ in range(50)}
    assert picks == {1, 3}


def test_random_policy__is_seeded(env):
    ids = [task.id for task in env.env.aec.tasks][:15]
    first = evaluate(random_policy(seed=7), env, ids)
    second = evaluate(random_policy(seed=7), env, ids)
    assert first.rewards == second.rewards


def test_predictor_policy__passes_the_mask_and_the_greedy_flag():
    class Model:
        def predict(self, observation, action_masks, deterministic):
            self.seen = (action_masks.tolist(), deterministic)
            return np.int64(2), None

    model = Model()
    assert predictor_policy(model)(np.zeros(3, dtype=np.float32), np.array([1, 0, 1], bool)) == 2
    assert model.seen == ([True, False, True], True)


def test_evaluation__pass_hat_and_intents():
    evaluation = Evaluation(
        rewards={"[a]x": [1.0, 0.0], "[a]y": [1.0, 1.0], "[b]z": [0.0, 0.0]}, turns=3.0
    )
    assert evaluation.pass_hat(1) == pytest.approx(0.5)
    assert evaluation.pass_hat(2) == pytest.approx(1 / 3)
    assert evaluation.mean_reward == pytest.approx(0.5)
    assert evaluation.by_intent() == {"a": pytest.approx(0.75), "b": 0.0}


def test_evaluate__rejects_empty_tasks_and_bad_trials(env):
    with pytest.raises(ValueError, match="task_ids"):
        evaluate(random_policy(0), env, [])
    with pytest.raises(ValueError, match="trials"):
        evaluate(random_policy(0), env, ["x"], trials=0)


def test_manual_policy__names_missing_templates(env):
    with pytest.raises(ValueError, match="templates missing"):
        ManualPolicy(env.feature_names, ["transfer", "end"])
