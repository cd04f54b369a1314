from types import SimpleNamespace

from tau_env.llm._backend import completion_cost


def test_completion_cost__reads_the_figure_litellm_already_computed():
    assert completion_cost(SimpleNamespace(_hidden_params={"response_cost": 0.25})) == 0.25
    assert completion_cost(SimpleNamespace(_hidden_params={"response_cost": None})) is None


def test_completion_cost__unknown_responses_have_no_cost_and_never_raise():
    assert completion_cost(SimpleNamespace()) is None
    assert completion_cost(object()) is None
