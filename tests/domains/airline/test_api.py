"""The official PettingZoo checkers and tau_env's own on airline, built-in and official data."""

import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

import tau_env
from tau_env.utils.env_checker import check_env


@pytest.fixture(params=["built-in", "official"])
def make(request):
    if request.param == "official":
        data_dir = request.getfixturevalue("data_dir")
        return lambda: tau_env.make_env("airline", data_dir=data_dir)
    return lambda: tau_env.make_env("airline")


def test_api_test__passes(make):
    api_test(make(), num_cycles=500)


def test_seed_test__passes(make):
    seed_test(make, num_cycles=300)


def test_parallel_api_test__passes_on_the_turn_based_conversion(make):
    parallel_api_test(turn_based_aec_to_parallel(make()), num_cycles=500)


def test_check_env__passes(make):
    check_env(make)


def test_make__versioned_id_and_offline_builtin_data():
    env = tau_env.make("tau/airline-v0")
    assert env.unwrapped.domain.env_id == "tau/airline-v0"
    assert env.unwrapped.domain.data.source == "built-in"
    names = env.unwrapped.domain.toolbox.agent_tools.names
    assert len(names) == 14 and names[0] == "book_reservation" and names[-1] == "get_flight_status"
    assert env.unwrapped.domain.toolbox.user_tools.names == ()
