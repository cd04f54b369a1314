from collections import Counter

import pytest

from tau_env.errors import TauEnvError
from tau_env.rollout import LocalBackend, create_run, load_run, plan_units, run, run_report
from tau_env.rollout.report import IncompleteRun
from tau_env.rollout_seeds import episode_seed
from tests.rollout import agents
from tests.rollout.conftest import MOCK_TASKS, mock_config


def _keys(store, run_id):
    return Counter((e.task_id, e.trial) for e in store.episodes(run_id))


class _StopsAfter:
    """A backend that plays only the first `limit` units, as a run killed midway would."""

    def __init__(self, limit):
        self.limit = limit

    async def execute(self, config, versions, units, sink):
        await LocalBackend(concurrency=2).execute(config, versions, units[: self.limit], sink)


def test_run__oracle_on_mock_stores_every_episode_once_with_its_seed(store):
    config = mock_config(trials=3)
    create_run(store, config)
    summary = run(store, config, backend=LocalBackend(concurrency=3))
    assert (summary.planned, summary.finished, summary.failed, summary.complete) == (
        12,
        12,
        0,
        True,
    )
    episodes = list(store.episodes("r"))
    assert _keys(store, "r") == Counter({(t, k): 1 for t in MOCK_TASKS for k in range(3)})
    assert all(e.seed == episode_seed(300, e.task_id, e.trial) for e in episodes)
    assert all(e.reward == 1.0 and e.termination == "user_stop" for e in episodes)
    assert all(e.trajectory[0]["content"] == "Hi! How can I help you today?" for e in episodes)
    assert all(e.versions["env_id"] == "tau/mock-v0" for e in episodes)
    assert run_report(store, "r").pass_hat_k == {1: 1.0, 2: 1.0, 3: 1.0}


def test_plan__is_trial_major_with_seeds_from_task_and_trial():
    units = plan_units(mock_config(trials=2))
    assert [(u.task_id, u.trial) for u in units[:5]] == [
        *((t, 0) for t in MOCK_TASKS),
        (MOCK_TASKS[0], 1),
    ]
    assert len({u.seed for u in units}) == len(units)


def test_resume__plays_exactly_the_missing_episodes(store):
    config = mock_config(trials=2)
    create_run(store, config)
    first = run(store, config, backend=_StopsAfter(3))
    assert (first.finished, first.complete) == (3, False)
    with pytest.raises(IncompleteRun, match=r"5 of 8 episodes.*tau-env resume --store .* --run r"):
        run_report(store, "r")
    second = run(store, load_run(store, "r"))
    assert (second.skipped, second.finished, second.complete) == (3, 5, True)
    assert _keys(store, "r") == Counter({(t, k): 1 for t in MOCK_TASKS for k in range(2)})
    third = run(store, load_run(store))
    assert (third.skipped, third.finished) == (8, 0)


def test_episodes__do_not_depend_on_concurrency(store):
    for run_id, concurrency in (("serial", 1), ("parallel", 5)):
        config = mock_config(run_id, agent="random", trials=3)
        create_run(store, config)
        run(store, config, backend=LocalBackend(concurrency=concurrency))
    serial = {(e.task_id, e.trial): e.trajectory for e in store.episodes("serial")}
    parallel = {(e.task_id, e.trial): e.trajectory for e in store.episodes("parallel")}
    assert serial == parallel
    assert len({str(t) for t in serial.values()}) > 1  # the random agent did vary


def test_async_participants__run_concurrently_up_to_the_limits(store):
    config = mock_config(agent="tests.rollout.agents:CountingOracle", trials=2)
    create_run(store, config)
    run(store, config, backend=LocalBackend(concurrency=6))
    assert agents.IN_FLIGHT["max"] == 6
    agents.IN_FLIGHT.update(now=0, max=0)
    config = mock_config("gated", agent="tests.rollout.agents:CountingOracle", trials=2)
    create_run(store, config)
    run(store, config, backend=LocalBackend(concurrency=6, llm_concurrency=2))
    assert agents.IN_FLIGHT["max"] == 2
    assert run_report(store, "gated").pass_hat_k == {1: 1.0, 2: 1.0}


def test_infrastructure_errors__are_logged_apart_and_retried_on_resume(store):
    config = mock_config(agent="tests.rollout.agents:OutageOracle", trials=2)
    create_run(store, config)
    summary = run(store, config)
    assert (summary.finished, summary.failed) == (6, 2)
    failures = store.failures("r", outstanding=True)
    assert {(f.task_id, f.trial, f.kind) for f in failures} == {
        ("complete_task", 0, "infrastructure"),
        ("complete_task", 1, "infrastructure"),
    }
    assert "provider unreachable" in failures[0].error
    with pytest.raises(IncompleteRun, match="2 infrastructure"):
        run_report(store, "r")
    agents.OUTAGE["active"] = False  # the provider is back
    assert run(store, load_run(store, "r")).finished == 2
    report = run_report(store, "r")
    assert report.pass_hat_k == {1: 1.0, 2: 1.0}
    assert report.failed_attempts == 2  # kept in the log, counted nowhere else
    assert store.failures("r", outstanding=True) == []


def test_crashes__are_logged_with_a_traceback_and_never_counted(store):
    config = mock_config(agent="tests.rollout.agents:BuggyAgent", trials=1)
    create_run(store, config)
    assert run(store, config).failed == 1
    (crash,) = store.failures("r")
    assert crash.kind == "crash" and crash.task_id == "reopen_task"
    assert "ZeroDivisionError" in crash.error and "in act" in crash.traceback
    assert ("reopen_task", 0) not in store.completed("r")


def test_participant_faults__end_the_episode_graded_zero(store):
    config = mock_config(agent="tests.rollout.agents:NonsenseAgent", trials=1)
    create_run(store, config)
    run(store, config)
    episodes = list(store.episodes("r"))
    assert len(episodes) == 4 and store.failures("r") == []
    assert {(e.reward, e.termination) for e in episodes} == {(0.0, "agent_error")}
    assert "InvalidAction" in episodes[0].note
    assert run_report(store, "r").pass_hat_k == {1: 0.0}


def test_unknown_participants__fail_before_any_episode(store):
    # Recorded without the check (as a run stored by an older tau_env): `run` still refuses.
    config = mock_config(agent="psychic")
    create_run(store, config, check=False)
    with pytest.raises(TauEnvError, match="unknown agent 'psychic'"):
        run(store, config)
    config = mock_config("r2", user="tests.rollout.agents:Nobody")
    create_run(store, config, check=False)
    with pytest.raises(TauEnvError, match="has no 'Nobody'"):
        run(store, config)
    assert store.episode_count("r") == store.episode_count("r2") == 0


def test_unknown_participants__are_refused_before_the_run_is_recorded(store):
    with pytest.raises(TauEnvError, match="unknown agent 'psychic'"):
        create_run(store, mock_config(agent="psychic"))
    with pytest.raises(TauEnvError, match="has no 'Nobody'"):
        create_run(store, mock_config("r2", user="tests.rollout.agents:Nobody"))
    assert store.runs() == []


def test_load_run__refuses_a_run_whose_tasks_changed(store):
    config = mock_config()
    record = create_run(store, config)
    store._db.execute("UPDATE runs SET fingerprint = 'stale' WHERE run_id = 'r'")
    with pytest.raises(TauEnvError, match="not be comparable"):
        load_run(store, "r")
    assert record.fingerprint != "stale"


def test_fingerprint__a_judge_added_by_a_resume_keeps_the_run_comparable(store):
    from tau_env.rollout.config import JudgeSpec
    from tau_env.rollout.judging import judge_for_resume
    from tau_env.rollout.provenance import run_fingerprint

    config = mock_config()
    create_run(store, config)
    judged = judge_for_resume(config, JudgeSpec(model="openai/judge"))
    assert run_fingerprint(judged) == run_fingerprint(config)
    store.update_run_config("r", judged.model_dump(mode="json"))
    assert load_run(store, "r").judge == JudgeSpec(model="openai/judge")
    assert judge_for_resume(judged, None) is judged
    same_model = judge_for_resume(judged, JudgeSpec(model="openai/judge", api_base="http://h"))
    assert same_model.judge.api_base == "http://h"  # the endpoint may move; the model may not
    with pytest.raises(TauEnvError, match="one run has one judge"):
        judge_for_resume(judged, JudgeSpec(model="openai/other"))


@pytest.mark.parametrize(("mode", "user_side"), [("oracle-plan", "scripted"), ("no-user", "none")])
def test_modes__wrap_the_env_and_record_who_played(store, mode, user_side):
    config = mock_config(trials=1, tasks=("complete_task", "reopen_task")).model_copy(
        update={"mode": mode}
    )
    create_run(store, config)
    run(store, config)
    episodes = list(store.episodes("r"))
    assert {e.user.implementation for e in episodes} == {user_side}
    assert {e.reward for e in episodes} == {1.0}
    if mode == "no-user":  # no greeting, the agent ends with `done`
        assert all(
            e.trajectory[0]["role"] == "assistant" and e.trajectory[0].get("tool_calls")
            for e in episodes
        )
        assert {e.termination for e in episodes} == {"agent_stop"}


def test_run__every_episode_is_written_as_it_finishes_and_all_are_counted(store):
    # Episodes were once batched per turn of the event loop (one transaction for several);
    # each now has its own (tests/rollout/test_unencodable_text.py counts the commits).
    written = []
    add_episode = store.add_episode

    def recording(record):
        written.append(record)
        return add_episode(record)

    store.add_episode = recording
    config = mock_config(trials=4)
    create_run(store, config)
    seen = []
    summary = run(store, config, backend=LocalBackend(concurrency=8), on_outcome=seen.append)
    assert summary.finished == 16 == len(seen) == len(written) == store.episode_count("r")


def test_run__a_failing_store_write_stops_the_run_with_its_error(store):
    def broken(record):
        raise OSError("disk full")

    store.add_episode = broken
    config = mock_config(trials=4)
    create_run(store, config)
    with pytest.raises(OSError, match="disk full"):
        run(store, config, backend=LocalBackend(concurrency=2))
