"""The official PettingZoo checkers, and tau_env's own, on retail built-in and official data."""

import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

import tau_env
from tau_env.utils.env_checker import check_env


@pytest.fixture(params=["built-in", "official"])
def make(request):
    if request.param == "official":
        data_dir = request.getfixturevalue("data_dir")
        return lambda: tau_env.make_env("retail", data_dir=data_dir)
    return lambda: tau_env.make_env("retail")


def test_api_test__passes(make):
    api_test(make(), num_cycles=500)


def test_seed_test__passes(make):
    seed_test(make, num_cycles=300)


def test_parallel_api_test__passes_on_the_turn_based_conversion(make):
    parallel_api_test(turn_based_aec_to_parallel(make()), num_cycles=500)


def test_check_env__passes(make):
    check_env(make)


def test_make__versioned_id_offers_the_sixteen_tools():
    env = tau_env.make("tau/retail-v0")
    env.reset(seed=0)
    context = env.unwrapped.context("agent")
    assert len(context.tool_names) == 16 and "calculate" in context.tool_names
    assert env.unwrapped.context("user").tool_names == ()
    assert env.unwrapped.domain.env_id == "tau/retail-v0"
