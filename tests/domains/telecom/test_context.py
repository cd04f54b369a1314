"""What telecom offers each side: the phone tools to the user, the company tools to the agent."""

import tau_env


def test_context__user_side_has_the_phone_tools():
    env = tau_env.make_env("telecom")
    env.reset(seed=0)
    user_tools = [tool["function"]["name"] for tool in env.unwrapped.context("user").tools]
    agent_tools = [tool["function"]["name"] for tool in env.unwrapped.context("agent").tools]
    assert len(user_tools) == 30 and "check_status_bar" in user_tools
    assert len(agent_tools) == 13 and "refuel_data" in agent_tools
    schema = next(
        t for t in env.unwrapped.context("agent").tools if t["function"]["name"] == "refuel_data"
    )
    assert schema["function"]["parameters"]["properties"]["gb_amount"]["type"] == "number"
