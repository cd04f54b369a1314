"""The official PettingZoo checkers, and tau_env's own, on telecom (built-in and official)."""

import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

import tau_env
from tau_env.utils.env_checker import check_env


@pytest.fixture(params=["built-in", "official", "workflow-official"])
def make(request):
    if request.param == "built-in":
        return lambda: tau_env.make_env("telecom")
    data_dir = request.getfixturevalue("data_dir")
    name = "telecom-workflow" if request.param.startswith("workflow") else "telecom"
    return lambda: tau_env.make_env(name, data_dir=data_dir)


def test_api_test__passes(make):
    api_test(make(), num_cycles=500)


def test_seed_test__passes(make):
    seed_test(make, num_cycles=300)


def test_parallel_api_test__passes_on_the_turn_based_conversion(make):
    parallel_api_test(turn_based_aec_to_parallel(make()), num_cycles=500)


def test_check_env__passes(make):
    check_env(make)


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
