"""Issue 53: partial credit pays nothing for doing nothing, on every built-in set and on the
official ones no more than the binary reward (+ 0.05).

The do-nothing agent (`refuse`) plays each set against the scripted user, seed 0.
"""

import pytest

from tau_env.baselines.probes import RefusingAgent
from tau_env.episode_runner import run_episode
from tau_env.grading.reward import reward_of
from tau_env.loader import make_env
from tau_env.wrappers.users import ScriptedUser

BUILTIN = ("airline", "retail", "banking_knowledge", "telecom")
OFFICIAL = ("airline", "retail", "banking_knowledge", "telecom")


def _do_nothing(env):
    """Mean binary and partial reward of the do-nothing agent over the env's tasks (those
    graded without a judge)."""
    domain = env.unwrapped.domain
    user = ScriptedUser.factory(domain, seed=0)
    binary, partial = [], []
    for task in env.unwrapped.tasks:
        grade = run_episode(env, RefusingAgent, user, task_id=task.id, seed=0).grade
        scaled = reward_of(grade, "partial")
        if grade.reward is None or scaled is None:  # waits for a judge
            continue
        binary.append(grade.reward)
        partial.append(scaled)
    return sum(binary) / len(binary), sum(partial) / len(partial)


@pytest.mark.parametrize("name", BUILTIN)
def test_builtin__doing_nothing_earns_at_most_0_05_partial_credit(name):
    _, partial = _do_nothing(make_env(name, split="test"))
    assert partial <= 0.05


@pytest.mark.parametrize("name", OFFICIAL)
def test_official__partial_credit_of_doing_nothing_stays_near_its_binary_reward(name, data_dir):
    binary, partial = _do_nothing(make_env(name, data_dir=data_dir))
    assert partial <= binary + 0.05, (binary, partial)
