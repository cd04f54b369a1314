from math import comb

import pytest

from tau_env.metrics import CoverageError
from tau_env.rollout import create_run, run_report
from tau_env.rollout.report import IncompleteRun
from tau_env.store import ParticipantInfo, Usage
from tests.rollout.conftest import mock_config
from tests.store.records import episode_record, failure_record

OUTCOMES = {  # hand-made: task -> rewards of trials 0..3
    "create_task": [1.0, 1.0, 1.0, 1.0],
    "complete_task": [1.0, 0.0, 1.0, 0.0],
    "reopen_task": [0.0, 0.0, 0.0, 1.0],
    "delete_refused": [0.0, 0.0, 0.0, 0.0],
}


def _episode(task_id, trial, reward, *, calls=0, cost=None, not_judged=()):
    usage = Usage(calls=calls, prompt_tokens=10 * calls, completion_tokens=calls, cost=cost)
    return episode_record(
        task_id,
        trial,
        reward,
        grade={"reward": reward, "termination": "user_stop", "not_judged": list(not_judged)},
        steps=3,
        agent=ParticipantInfo(implementation="llm", model="m", usage=usage),
        started_at=1000.0,
        duration=2.0,
    )


@pytest.fixture
def filled(store):
    create_run(store, mock_config(trials=4))
    for task_id, rewards in OUTCOMES.items():
        for trial, reward in enumerate(rewards):
            store.add_episode(_episode(task_id, trial, reward, calls=2, cost=0.25))
    return store


def test_report__pass_hat_k_is_the_exact_combinatorial_estimate(filled):
    report = run_report(filled, "r")
    for k in range(1, 5):
        per_task = [comb(int(sum(r)), k) / comb(4, k) for r in OUTCOMES.values()]
        assert report.pass_hat_k[k] == pytest.approx(sum(per_task) / 4)
        for task in report.tasks:
            expected = comb(int(sum(OUTCOMES[task.task_id])), k) / comb(4, k)
            assert task.pass_hat_k[k] == pytest.approx(expected)
    assert report.pass_hat_k[1] == pytest.approx((1 + 0.5 + 0.25 + 0) / 4)
    assert report.pass_hat_k[2] == pytest.approx((1 + 1 / 6 + 0 + 0) / 4)
    assert report.pass_hat_k[4] == pytest.approx(0.25)
    assert [t.successes for t in report.tasks] == [4, 2, 1, 0]


def test_report__sums_usage_and_cost(filled):
    report = run_report(filled, "r")
    assert report.agent_usage == Usage(calls=32, prompt_tokens=320, completion_tokens=32, cost=4.0)
    assert report.user_usage == Usage(cost=0.0)
    assert report.to_json()["usage"]["agent"]["calls"] == 32


def test_report__unequal_trial_counts_are_a_clear_error(store):
    create_run(store, mock_config(trials=2))
    for task_id in OUTCOMES:
        store.add_episode(_episode(task_id, 0, 1.0))
    store.add_episode(_episode("create_task", 1, 1.0))
    store.add_failure(
        failure_record("reopen_task", 1, "infrastructure", "ConnectionError: down", duration=0.5)
    )
    with pytest.raises(CoverageError) as caught:
        run_report(store, "r")
    message = str(caught.value)
    assert isinstance(caught.value, IncompleteRun)
    assert "3 of 8 episodes have no result" in message
    assert "1 infrastructure" in message
    assert "every task at 2 trials" in message
    assert f"tau-env resume --store {store.path} --run r" in message


def test_report__a_duplicate_episode_changes_nothing(filled):
    assert filled.add_episode(_episode("create_task", 0, 0.0)) is False
    assert run_report(filled, "r").tasks[0].rewards == [1.0, 1.0, 1.0, 1.0]


def test_report__unjudged_episodes_have_no_reward_and_are_left_out_of_pass_hat_k(store):
    # Before issue 14 an unjudged episode kept the product of its other checks (a pass here).
    create_run(store, mock_config(trials=2))
    unjudged = {("reopen_task", 0), ("delete_refused", 0), ("delete_refused", 1)}
    for task_id in OUTCOMES:
        for trial in range(2):
            if (task_id, trial) in unjudged:
                store.add_episode(_episode(task_id, trial, None, not_judged=["NL_ASSERTION"]))
            else:
                store.add_episode(_episode(task_id, trial, OUTCOMES[task_id][trial]))
    report = run_report(store, "r")
    assert report.not_judged == 3 and report.to_json()["not_judged"] == 3
    by_task = {task.task_id: task for task in report.tasks}
    assert by_task["reopen_task"].rewards == [None, 0.0] and by_task["reopen_task"].graded == 1
    assert by_task["delete_refused"].pass_hat_k == {}
    # create_task 2/2, complete_task 1/2, reopen_task 0/1; delete_refused has no graded trial.
    assert report.pass_hat_k == pytest.approx({1: (1 + 0.5 + 0) / 3})
    assert report.average_reward == pytest.approx(3 / 5)
    assert report.to_json()["tasks"][2]["rewards"] == [None, 0.0]
