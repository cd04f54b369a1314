"""The retail registration: a versioned id offering the sixteen agent tools."""

import tau_env


def test_make__versioned_id_offers_the_sixteen_tools():
    env = tau_env.make("tau/retail-v0")
    env.reset(seed=0)
    context = env.unwrapped.context("agent")
    assert len(context.tool_names) == 16 and "calculate" in context.tool_names
    assert env.unwrapped.context("user").tool_names == ()
    assert env.unwrapped.domain.env_id == "tau/retail-v0"
