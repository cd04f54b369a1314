"""The airline registration: a versioned id on built-in data that needs no download."""

import tau_env


def test_make__versioned_id_and_offline_builtin_data():
    env = tau_env.make("tau/airline-v0")
    assert env.unwrapped.domain.env_id == "tau/airline-v0"
    assert env.unwrapped.domain.data.source == "built-in"
    names = env.unwrapped.domain.toolbox.agent_tools.names
    assert len(names) == 14 and names[0] == "book_reservation" and names[-1] == "get_flight_status"
    assert env.unwrapped.domain.toolbox.user_tools.names == ()
