"""The featurized views give facts, not verdicts (issue 53, item 5).

No feature names the policy's verdict; the mask hides only moves that cannot be formed, never
a move the policy forbids; a task the policy allows and one it forbids look the same to the
mask at the moment of decision; the mask-order rule is in every panel and does what it says.
"""

import re

import numpy as np
import pytest

from tau_env.baselines.rl.desk_heuristics import desk_trivial_policies
from tau_env.baselines.rl.desk_manual import DeskPolicy
from tau_env.baselines.rl.heuristics import trivial_policies
from tau_env.baselines.rl.manual_policy import ManualPolicy
from tau_env.baselines.rl.mask_order import MaskOrder
from tau_env.wrappers.rl import make_featurized_env
from tests.families import of_family

VERDICT_WORDS = frozenset(
    {
        "allowed",
        "allows",
        "refuse",
        "refused",
        "refusal",
        "reasons",
        "covers",
        "eligible",
        "cancellable",
        "forbidden",
        "forbids",
        "verdict",
        "permitted",
        "may",
        "should",
    }
)
"""Words of a feature name that would state the policy's decision."""

DESKS = ("airline", "retail")
_DECISIONS = ("propose", "act", "refuse")


def _manual(env):
    if "ask_phone_number" in env.template_names:
        return ManualPolicy(env.feature_names, env.template_names)
    return DeskPolicy(env.feature_names, env.template_names)


def _states(env, task_id):
    """(features, mask, chosen template name) of every turn of the manual policy."""
    policy = _manual(env)
    features, _ = env.reset(seed=0, options={"task_id": task_id})
    done, seen = False, []
    while not done:
        mask = env.action_masks().copy()
        index = policy(features, mask)
        seen.append((features, mask, env.template_names[index]))
        features, _, terminated, truncated, _ = env.step(index)
        done = terminated or truncated
    return seen


@pytest.mark.parametrize("domain", ["airline", "retail", "telecom"])
def test_feature_names__state_no_verdict(domain):
    env = make_featurized_env(domain, split="test")
    names = [n for n in env.feature_names if not n.startswith(("applies:", "taken:"))]
    assert names
    assert "changes_allowed" not in names and "gift_card_covers" not in names
    for name in names:
        assert not VERDICT_WORDS & set(re.split(r"[^a-z]+", name.lower())), name


@pytest.mark.parametrize(
    ("domain", "families"),
    [
        ("retail", ("cancel_refused", "return_refused", "modify_payment_refused")),
        ("airline", ("cancel_refused", "compensation_refused")),
    ],
)
def test_mask__offers_the_change_the_policy_forbids_once_it_can_be_formed(domain, families):
    """On tasks the policy refuses, ``propose`` is unmasked as soon as the wish's write
    call has its arguments; and whenever a refusal can be made, every reason can."""
    env = make_featurized_env(domain, split="test")
    index = env.feature_names.index
    resolved, confirmed = index("changes_resolved"), index("confirmed")
    reasons = [i for i, n in enumerate(env.template_names) if n.startswith("refuse")]
    formable = 0
    for family in families:
        for task in of_family(env.env.aec.tasks, family):
            for features, mask, _ in _states(env, task.id):
                if features[resolved] > 0 and features[confirmed] == 0:
                    assert mask[env.template_names.index("propose")], task.id
                    formable += 1
                if mask[reasons[0]]:
                    assert all(mask[i] for i in reasons), task.id
    assert formable > 0  # the refused changes did reach a formable proposal


@pytest.mark.parametrize(
    ("domain", "allowed_family", "refused_family"),
    [
        ("retail", "modify_payment", "modify_payment_refused"),
        ("retail", "cancel", "cancel_refused"),
        ("airline", "cancel_recent", "cancel_refused"),
        ("airline", "compensation_cancelled", "compensation_refused"),
    ],
)
def test_mask__is_the_same_whether_the_policy_allows_or_forbids(
    domain, allowed_family, refused_family
):
    """At the manual's decision (propose or refuse), an allowed and a forbidden request
    of the same kind show the same mask: only the facts differ, and the policy reads them."""
    env = make_featurized_env(domain, split="test")

    def decision(task_id):
        for _, mask, chosen in _states(env, task_id):
            if chosen.startswith(_DECISIONS):
                return mask, chosen
        raise AssertionError(f"{task_id}: the manual never decided")

    allowed = of_family(env.env.aec.tasks, allowed_family)[0].id
    refused = of_family(env.env.aec.tasks, refused_family)[0].id
    (yes_mask, yes), (no_mask, no) = decision(allowed), decision(refused)
    assert yes == "propose" and no.startswith("refuse")
    assert np.array_equal(yes_mask, no_mask)


@pytest.mark.parametrize("domain", ["airline", "retail", "telecom"])
def test_mask_order__is_in_the_panel(domain):
    env = make_featurized_env(domain, split="test")
    panel = (desk_trivial_policies if domain in DESKS else trivial_policies)(
        env.feature_names, env.template_names
    )
    assert isinstance(panel["mask_order"], MaskOrder)


def test_mask_order__takes_the_first_unmasked_template_and_ignores_the_features():
    policy = MaskOrder(("a", "b"), ("t0", "t1", "t2", "t3"))
    rng = np.random.default_rng(0)
    for _ in range(50):
        mask = rng.random(4) < 0.5
        features = rng.random(2).astype(np.float32)
        expected = int(np.flatnonzero(mask)[0]) if mask.any() else 3
        assert policy(features, mask) == expected
        assert policy(np.zeros(2, dtype=np.float32), mask) == expected


@pytest.mark.parametrize("domain", ["retail", "telecom"])
def test_mask_order__plays_the_first_applicable_template_every_turn(domain):
    env = make_featurized_env(domain, split="test")
    policy = MaskOrder(env.feature_names, env.template_names)
    features, _ = env.reset(seed=0, options={"task_id": env.env.aec.tasks[0].id})
    for _ in range(8):
        mask = env.action_masks()
        index = policy(features, mask)
        assert mask[index] and not mask[:index].any()
        features, _, terminated, truncated, _ = env.step(index)
        if terminated or truncated:
            break
