import pytest

from tau_env.metrics import CoverageError, pass_hat_k, pass_hat_k_curve, task_pass_hat_k


def test_task_pass_hat_k__is_the_combinatorial_estimate():
    assert task_pass_hat_k(4, 2, 1) == pytest.approx(0.5)
    assert task_pass_hat_k(4, 2, 2) == pytest.approx(1 / 6)
    assert task_pass_hat_k(4, 4, 4) == 1.0
    assert task_pass_hat_k(4, 3, 4) == 0.0


def test_pass_hat_k__averages_tasks_unweighted():
    results = {"a": [1.0, 1.0, 0.0], "b": [0.0, 0.0, 0.0], "c": [1.0, 1.0, 1.0]}
    assert pass_hat_k(results, 1) == pytest.approx((2 / 3 + 0 + 1) / 3)
    assert pass_hat_k(results, 2) == pytest.approx((1 / 3 + 0 + 1) / 3)
    assert pass_hat_k_curve(results) == pytest.approx({1: 5 / 9, 2: 4 / 9, 3: 1 / 3})


def test_pass_hat_k__success_tolerance_is_one_millionth():
    assert pass_hat_k({"a": [0.9999995]}, 1) == 1.0
    assert pass_hat_k({"a": [0.999]}, 1) == 0.0


def test_pass_hat_k__unequal_trial_counts_are_an_error_naming_a_task():
    with pytest.raises(CoverageError, match=r"unequal trial counts.*'b'"):
        pass_hat_k({"a": [1.0, 1.0], "b": [1.0]}, 1)


def test_pass_hat_k__k_beyond_trials_is_an_error():
    with pytest.raises(ValueError, match="k must be in"):
        pass_hat_k({"a": [1.0]}, 2)


def test_pass_hat_k_excluding__each_task_counts_only_its_graded_trials():
    from tau_env.metrics import pass_hat_k_excluding

    results = {"a": [1.0, None, 1.0], "b": [0.0, 1.0, 1.0], "c": [None, None, None]}
    # a: 2 of 2 graded pass; b: 2 of 3; c has no graded trial and is left out.
    assert pass_hat_k_excluding(results) == pytest.approx({1: (1 + 2 / 3) / 2, 2: (1 + 1 / 3) / 2})
    assert pass_hat_k_excluding({"a": [1.0, 0.0]}) == pass_hat_k_curve({"a": [1.0, 0.0]})
    assert pass_hat_k_excluding({"a": [None]}) == {}
