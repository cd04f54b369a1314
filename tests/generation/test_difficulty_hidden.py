"""A generated task's difficulty features reach neither side: not the agent's policy, tools or
observations, not the user's brief or observations (they live in the task's description)."""

from __future__ import annotations

import pytest

from tau_env.baselines.oracle import OracleAgent
from tau_env.cli.main import main
from tau_env.domain import clear_domain_cache
from tau_env.episode_runner import run_episode
from tau_env.loader import make_env
from tau_env.wrappers.users import ScriptedUser
from tests.id_leaks import as_text

FEATURES = ("plan_length", "agent_steps", "user_steps", "lookups", "distractors", "setup_calls")


class Recorder:
    """A participant that writes down everything it is given, then acts as `inner`."""

    def __init__(self, inner, seen: list[str]) -> None:
        self.inner, self.seen = inner, seen

    def act(self, view, context):
        self.seen.append(as_text([view, context]))
        return self.inner.act(view, context)

    def __getattr__(self, name):
        return getattr(self.inner, name)


@pytest.mark.parametrize("domain", ["telecom", "retail"])
def test_difficulty__never_reaches_a_participant(tmp_path, domain):
    out = ["--out", str(tmp_path), "--audit-sample", "0"]
    assert main(["generate", "--domain", domain, "--tasks", "6", "--seed", "2", *out]) == 0
    clear_domain_cache()
    env = make_env(domain, data_dir=tmp_path)
    tasks = env.unwrapped.tasks
    assert all(task.description.difficulty for task in tasks)
    seen: list[str] = []
    for task in tasks[:3]:
        result = run_episode(
            env,
            lambda t: Recorder(OracleAgent(t), seen),
            lambda t: Recorder(ScriptedUser(t), seen),
            task_id=task.id,
            seed=1,
        )
        assert result.reward == 1.0
        seen.append(as_text(result.trajectory))
        seen.append(env.unwrapped.domain.policy_for(task))
    text = "\n".join(seen)
    assert len(text) > 1000  # the participants were given their views
    for feature in FEATURES:
        assert feature not in text
