import sqlite3

import pytest

from tau_env.errors import TauEnvError
from tau_env.store import (
    EpisodeRecord,
    FailureRecord,
    ParticipantInfo,
    ResultStore,
    RunExists,
    RunRecord,
    UnknownRun,
)


def _run(run_id, created_at=1.0):
    return RunRecord(
        run_id=run_id,
        created_at=created_at,
        domain="mock",
        config={"x": 1},
        fingerprint="f",
        versions={"tau_env": "0"},
    )


def _episode(task_id="t", trial=0, reward=1.0):
    return EpisodeRecord(
        run_id="a",
        task_id=task_id,
        trial=trial,
        seed=7,
        reward=reward,
        termination="user_stop",
        grade={},
        trajectory=[{"role": "assistant", "content": "hi"}],
        steps=1,
        agent=ParticipantInfo(implementation="oracle"),
        user=ParticipantInfo(implementation="gold"),
        started_at=5.0,
        duration=1.0,
    )


def _failure(trial=0):
    return FailureRecord(
        run_id="a",
        task_id="t",
        trial=trial,
        seed=7,
        kind="infrastructure",
        error="ConnectionError: x",
        at=3.0,
        duration=0.1,
    )


@pytest.fixture
def store(tmp_path):
    with ResultStore(tmp_path / "sub" / "s.sqlite") as opened:
        opened.create_run(_run("a"))
        yield opened


def test_store__uses_wal_and_reopens_with_everything(store, tmp_path):
    store.add_episode(_episode())
    mode = store._db.execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
    with ResultStore(store.path) as again:
        assert [e.model_dump() for e in again.episodes("a")] == [_episode().model_dump()]
        assert again.run("a") == _run("a")


def test_add_episode__never_duplicates_or_replaces(store):
    assert store.add_episode(_episode(reward=1.0)) is True
    assert store.add_episode(_episode(reward=0.0)) is False
    assert store.rewards("a") == {"t": {0: 1.0}}
    assert store.episode_count("a") == 1


def test_failures__are_kept_and_filtered_to_outstanding(store):
    store.add_failure(_failure(0))
    store.add_failure(_failure(1))
    store.add_episode(_episode(trial=0))
    assert [f.trial for f in store.failures("a")] == [0, 1]
    assert [f.trial for f in store.failures("a", outstanding=True)] == [1]


def test_runs__latest_by_default_and_clear_errors(store):
    store.create_run(_run("b", created_at=2.0))
    assert store.run().run_id == "b"
    assert [r.run_id for r in store.runs()] == ["a", "b"]
    with pytest.raises(RunExists, match=r"tau-env resume --store .* --run a"):
        store.create_run(_run("a"))
    with pytest.raises(UnknownRun, match=r"no run 'zzz'; runs in it: a, b"):
        store.run("zzz")


def test_summaries__carry_usage_without_trajectories(store):
    store.add_episode(_episode())
    (summary,) = store.summaries("a")
    assert (summary.task_id, summary.steps, summary.duration, summary.success) == (
        "t",
        1,
        1.0,
        True,
    )


def test_store__refuses_a_file_that_is_not_a_store(tmp_path):
    path = tmp_path / "notes.sqlite"
    path.write_bytes(b"definitely not sqlite" * 100)
    with pytest.raises(TauEnvError, match="not a usable result store"):
        ResultStore(path)


def test_store__refuses_a_newer_schema(tmp_path):
    path = tmp_path / "s.sqlite"
    ResultStore(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    db.commit()
    db.close()
    with pytest.raises(TauEnvError, match="schema 99"):
        ResultStore(path)


def test_result_store__a_folder_is_refused_with_a_message_naming_it(tmp_path):
    # Before issue 15: sqlite3.OperationalError "unable to open database file".
    with pytest.raises(TauEnvError, match=r"is a folder; a result store is a file"):
        ResultStore(tmp_path)


def test_result_store__a_path_under_a_file_is_refused_with_a_message_naming_it(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(TauEnvError, match="cannot create its folder"):
        ResultStore(blocker / "runs.sqlite")
