"""Fuzzing both sides of every domain with valid and hostile actions (issue 9, item 1).

Each hypothesis example plays one episode whose every action, on both sides, is drawn at random:
tool calls of real and invented tools with plausible, missing, extra, mistyped, huge, unicode or
nested-junk arguments (as dicts or JSON text), messages with stop tokens and hostile structured
requests, stops, dicts in the models' layout, and samples of the `Dict` action space.

Invariants after every step: no exception escapes ``step``; a failed tool call leaves the world
unchanged; PettingZoo's dictionaries cover exactly the live agents; observations lie in their
spaces; and every episode ends (by truncation at ``max_steps`` at the latest). The budget is
fixed (derandomized, a set number of examples), and the steps are counted per domain and side.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

import tau_env
from tau_env.actions import CallTool
from tau_env.domain import load_domain
from tests.conftest import each_source
from tests.reliability.strategies import FUZZ_SETTINGS, action_for, known_values
from tests.reliability.tally import count

MAX_STEPS = 40
EXAMPLES = 60


def label_of(domain_name: str, data_dir: str | None) -> str:
    """``airline/official``, ``telecom/built-in``... for counts and test ids."""
    return f"{domain_name}/{'official' if data_dir else 'built-in'}"


def check_invariants(env) -> None:
    """PettingZoo's bookkeeping and the observation spaces, after any step."""
    live = set(env.agents)
    for table in (
        env.rewards,
        env._cumulative_rewards,
        env.terminations,
        env.truncations,
        env.infos,
    ):
        assert set(table) == live
    for side in env.agents:
        assert env.observation_space(side).contains(env.observe(side))
    if live:
        ended = {env.terminations[a] or env.truncations[a] for a in live}
        assert len(ended) == 1, "both sides end together"
        assert env.agent_selection in live


def _space_sample(env, side: str, seed: int):
    space = env.action_space(side)
    space.seed(seed)
    return space.sample()


@each_source()
def test_fuzzed_episodes_keep_every_invariant(domain_name, data_dir):
    domain = load_domain(domain_name, data_dir)
    seen = known_values(domain)
    env = tau_env.make_env(
        domain_name, data_dir=data_dir, max_steps=MAX_STEPS, max_errors=1000
    ).unwrapped
    task_ids = [task.id for task in env.tasks]
    steps: Counter[str] = Counter()
    failures: Counter[str] = Counter()

    @settings(FUZZ_SETTINGS, max_examples=EXAMPLES)
    @given(data=st.data(), task_id=st.sampled_from(task_ids), seed=st.integers(0, 2**16))
    def play(data, task_id, seed):
        env.reset(seed=seed, options={"task_id": task_id})
        for _ in range(MAX_STEPS + 5):
            if not env.agents:
                break
            side = env.agent_selection
            if env.terminations[side] or env.truncations[side]:
                env.step(None)
                check_invariants(env)
                continue
            if data.draw(st.integers(0, 19), label="space sample?") == 0:
                action = _space_sample(env, side, data.draw(st.integers(0, 2**31)))
            else:
                action = data.draw(action_for(domain, side, seen), label=f"{side} action")
            world = env.conversation.world
            before = world.fork()
            errors_before = env.conversation.num_errors
            env.step(action)
            steps[side] += 1
            failed = env.conversation.num_errors > errors_before
            if failed:
                assert world.differences(before) == [], f"failed {action!r} changed the world"
                failures[side] += 1
            elif isinstance(action, CallTool) and env.conversation.trajectory[-1].error:
                raise AssertionError("an error result was not counted")
            check_invariants(env)
        assert not env.agents, "the episode did not end within max_steps"

    play()
    label = label_of(domain_name, data_dir)
    for side in ("agent", "user"):
        count("fuzzed episode steps", f"{label} {side}", steps[side])
        count(
            "fuzzed episode steps: failed calls, world unchanged", f"{label} {side}", failures[side]
        )
    assert steps["agent"] > EXAMPLES and steps["user"] > EXAMPLES, steps
