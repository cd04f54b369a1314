"""The official PettingZoo checkers and tau_env's own, on every registered domain and source."""

import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test
from pettingzoo.utils.conversions import aec_to_parallel, turn_based_aec_to_parallel

import tau_env
from tau_env.domain import has_builtin_data, registered_domains
from tau_env.utils.env_checker import check_env
from tests.conftest import domain_sources, source_id


@pytest.fixture(params=domain_sources(), ids=source_id)
def make(request):
    domain, data_dir = request.param
    return lambda: tau_env.make_env(domain, data_dir=data_dir)


def test_every_domain_has_both_data_sources_checked(data_dir):
    checked = {(name, source is not None) for name, source in domain_sources()}
    for name in registered_domains():
        assert (name, False) in checked or not has_builtin_data(name)
        if (data_dir / "domains" / name).is_dir():
            assert (name, True) in checked


def test_api_test__passes(make):
    api_test(make(), num_cycles=300)


def test_seed_test__passes(make):
    seed_test(make, num_cycles=200)


def test_parallel_api_test__passes_on_the_turn_based_conversion(make):
    parallel_api_test(turn_based_aec_to_parallel(make()), num_cycles=300)


def test_is_parallelizable__is_false_so_aec_to_parallel_refuses_a_turn_taking_env():
    # Issue 55 item 2: the flag said True, and parallel_api_test(aec_to_parallel(env)) failed
    # ("expects agents to step in a cycle"): a tool call keeps the floor, so the sides do not
    # act in a cycle. The turn-based conversion above is the parallel view that holds.
    env = tau_env.make_env("mock")
    assert env.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(env)


def test_check_env__passes(make):
    check_env(make)


def test_make__versioned_id_and_unwrapped():
    env = tau_env.make("tau/mock-v0")
    assert type(env.unwrapped).__name__ == "TauEnv"
    assert env.unwrapped.domain.env_id == "tau/mock-v0"
    with pytest.raises(KeyError, match="available versions"):
        tau_env.make("tau/mock-v9")
