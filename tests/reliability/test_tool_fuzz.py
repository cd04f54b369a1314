"""Every tool of both sides of every domain, called with fuzzed arguments (issue 9, item 1).

Whole-episode fuzzing (`test_action_fuzz`) draws tools at random, so a domain with many tools
(telecom's 30 user tools) may leave some barely touched. Here each tool of each side gets its
own fixed budget of calls, through ``env.step``, with plausible values from the domain's gold
plans mixed with missing, extra, mistyped, huge, unicode and nested-junk arguments, as a dict or
as JSON text. Invariants: the call never raises, is answered by exactly one tool result, a
failed call leaves the world unchanged (no difference; on the small mock and telecom databases
the reference state hashes are compared too), and the observations stay in their spaces.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

import tau_env
from tau_env.actions import CallTool, SendMessage
from tau_env.domain import load_domain
from tau_env.messages import ToolMessage
from tests.conftest import each_source
from tests.reliability.strategies import FUZZ_SETTINGS, arguments_for, known_values
from tests.reliability.tally import count
from tests.reliability.test_action_fuzz import check_invariants, label_of

EXAMPLES_PER_TOOL = 25


def _hashes(world) -> tuple[str, str | None]:
    """The reference's state hashes of both databases."""
    user = world.user_db.reference_hash() if world.user_db is not None else None
    return world.agent_db.reference_hash(), user


def _playable_tasks(env) -> list[str]:
    """Tasks whose episode is still open after reset (a history may already end with a stop)."""
    ids = []
    for task in env.tasks[:50]:
        env.reset(seed=0, options={"task_id": task.id})
        if env.agents:
            ids.append(task.id)
    return ids


@each_source()
def test_every_tool_survives_fuzzed_arguments(domain_name, data_dir):
    domain = load_domain(domain_name, data_dir)
    seen = known_values(domain)
    env = tau_env.make_env(domain_name, data_dir=data_dir, max_steps=50, max_errors=1000).unwrapped
    task_ids = _playable_tasks(env)
    hash_check = domain_name.startswith(("mock", "telecom"))  # small databases: hash cheaply
    calls: Counter[str] = Counter()
    successes: Counter[str] = Counter()

    def fuzz(side: str, name: str) -> None:
        @settings(FUZZ_SETTINGS, max_examples=EXAMPLES_PER_TOOL)
        @given(
            task_id=st.sampled_from(task_ids),
            seed=st.integers(0, 2**16),
            arguments=arguments_for(domain, side, name, seen),
        )
        def call(task_id, seed, arguments):
            env.reset(seed=seed, options={"task_id": task_id})
            if env.agent_selection != side:
                env.step(SendMessage(content="Please go ahead."))  # hand over the floor
            assert env.agent_selection == side and env.agents
            world = env.conversation.world
            before = world.fork()
            hashes = _hashes(world) if hash_check else None
            length = len(env.conversation.trajectory)
            env.step(CallTool(name=name, arguments=arguments))
            new = env.conversation.trajectory[length:]
            assert len(new) == 2 and isinstance(new[1], ToolMessage), new
            result = new[1]
            assert isinstance(result.content, str)
            if result.error:
                assert result.content.startswith("Error: ")
                assert world.differences(before) == [], f"failed {name}({arguments!r}) wrote"
                assert hashes is None or _hashes(world) == hashes
            else:
                successes[f"{side} {name}"] += 1
            calls[side] += 1
            check_invariants(env)

        call()

    for side in ("agent", "user"):
        for name in domain.toolbox.tools(side).names:
            fuzz(side, name)

    label = label_of(domain_name, data_dir)
    for side in ("agent", "user"):
        tools = domain.toolbox.tools(side).names
        assert calls[side] >= len(tools) * EXAMPLES_PER_TOOL // 2, (side, calls)
        count("fuzzed tool calls (every tool)", f"{label} {side} ({len(tools)} tools)", calls[side])
        succeeded = sum(1 for name in tools if successes[f"{side} {name}"])
        count("tools with a successful fuzzed call", f"{label} {side}", succeeded)
        if tools:
            assert succeeded > 0, f"no fuzzed {side} call ever succeeded: only errors were tested"
