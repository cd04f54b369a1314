"""The official PettingZoo checkers, and tau_env's own, on every mock data source."""

import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

import tau_env
from tau_env.utils.env_checker import check_env


@pytest.fixture(params=["built-in", "official"])
def make(request):
    if request.param == "official":
        data_dir = request.getfixturevalue("data_dir")
        return lambda: tau_env.make_env("mock", data_dir=data_dir)
    return lambda: tau_env.make_env("mock")


def test_api_test__passes(make):
    api_test(make(), num_cycles=500)


def test_seed_test__passes(make):
    seed_test(make, num_cycles=300)


def test_parallel_api_test__passes_on_the_turn_based_conversion(make):
    parallel_api_test(turn_based_aec_to_parallel(make()), num_cycles=500)


def test_check_env__passes(make):
    check_env(make)


def test_make__versioned_id_and_unwrapped():
    env = tau_env.make("tau/mock-v0")
    assert type(env.unwrapped).__name__ == "TauEnv"
    assert env.unwrapped.domain.env_id == "tau/mock-v0"
    with pytest.raises(KeyError, match="available versions"):
        tau_env.make("tau/mock-v9")
