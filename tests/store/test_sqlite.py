import sqlite3

import pytest

from tau_env.errors import TauEnvError
from tau_env.store import (
    FailureRecord,
    ParticipantInfo,
    ResultStore,
    RunExists,
    RunRecord,
    UnknownRun,
)
from tests.store.records import episode_record


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
    return episode_record(
        task_id,
        trial,
        reward,
        run_id="a",
        seed=7,
        trajectory=[{"role": "assistant", "content": "hi"}],
        user=ParticipantInfo(implementation="gold"),
        started_at=5.0,
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


def test_add_episodes__writes_a_batch_and_skips_only_its_duplicates(store):
    assert store.add_episode(_episode(trial=1, reward=0.0)) is True
    batch = [_episode(trial=0), _episode(trial=1), _episode(trial=2), _episode(trial=2)]
    assert store.add_episodes(batch) == [True, False, True, False]
    assert store.rewards("a") == {"t": {0: 1.0, 1: 0.0, 2: 1.0}}
    assert store.add_episodes([]) == []


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


def _unjudged(task_id="t", trial=0):
    grade = {"reward": None, "termination": "user_stop", "not_judged": ["NL_ASSERTION"]}
    return _episode(task_id, trial, reward=None).model_copy(update={"grade": grade})


def test_unjudged__stored_without_reward_and_completed_once(store):
    store.add_episode(_unjudged("t", 0))
    store.add_episode(_episode("t", 1, reward=1.0))
    assert store.rewards("a") == {"t": {0: None, 1: 1.0}}
    (waiting,) = store.unjudged("a")
    assert (waiting.task_id, waiting.trial, waiting.reward, waiting.success) == (
        "t",
        0,
        None,
        False,
    )
    assert [s.not_judged for s in store.summaries("a")] == [True, False]
    judged = waiting.model_copy(update={"reward": 0.0, "grade": {"reward": 0.0}})
    assert store.set_judged_grade(judged) is True
    assert store.set_judged_grade(judged.model_copy(update={"reward": 1.0})) is False
    assert list(store.unjudged("a")) == []
    assert store.rewards("a") == {"t": {0: 0.0, 1: 1.0}}
    assert next(store.episodes("a")).grade == {"reward": 0.0}


def test_update_run_config__keeps_the_fingerprint(store):
    store.update_run_config("a", {"x": 2, "judge": {"model": "m"}})
    run = store.run("a")
    assert run.config == {"x": 2, "judge": {"model": "m"}} and run.fingerprint == "f"
    with pytest.raises(UnknownRun):
        store.update_run_config("nope", {})


_SCHEMA_1_EPISODES = """CREATE TABLE episodes (
    run_id TEXT NOT NULL REFERENCES runs(run_id), task_id TEXT NOT NULL,
    trial INTEGER NOT NULL, seed INTEGER NOT NULL, reward REAL NOT NULL,
    termination TEXT NOT NULL, finished_at REAL NOT NULL, stats TEXT NOT NULL,
    body TEXT NOT NULL, PRIMARY KEY (run_id, task_id, trial))"""


def _schema_1_store(tmp_path):
    """A store file laid out as schema 1 wrote it, with an unjudged pass (trial 0)."""
    import json

    path = tmp_path / "old.sqlite"
    with ResultStore(path) as new:  # lay out a schema-1 file by hand
        new.create_run(_run("a"))
    db = sqlite3.connect(path)
    db.execute("DROP TABLE episodes")
    db.execute(_SCHEMA_1_EPISODES)
    db.execute("UPDATE meta SET value = '1' WHERE key = 'schema'")
    for trial, not_judged in ((0, True), (1, False)):
        grade = {"reward": 1.0, "not_judged": ["NL_ASSERTION"] if not_judged else []}
        body = _episode("t", trial).model_copy(update={"grade": grade}).model_dump_json()
        stats = {"steps": 1, "duration": 1.0, "not_judged": not_judged}
        stats["agent_usage"] = stats["user_usage"] = {"calls": 0}
        db.execute(
            "INSERT INTO episodes VALUES ('a', 't', ?, 7, 1.0, 'user_stop', 6.0, ?, ?)",
            (trial, json.dumps(stats), body),
        )
    db.commit()
    db.close()
    return path


def test_store__migrates_schema_1_and_unjudged_passes_lose_their_reward(tmp_path):
    path = _schema_1_store(tmp_path)
    with ResultStore(path) as migrated:
        assert migrated.rewards("a") == {"t": {0: None, 1: 1.0}}
        (waiting,) = migrated.unjudged("a")
        assert waiting.trial == 0 and waiting.grade["reward"] is None
        schema = migrated._db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        assert schema == ("2",)
    with ResultStore(path) as reopened:  # migrating once is enough
        assert reopened.rewards("a") == {"t": {0: None, 1: 1.0}}


def test_result_store__a_folder_is_refused_with_a_message_naming_it(tmp_path):
    # Before issue 15: sqlite3.OperationalError "unable to open database file".
    with pytest.raises(TauEnvError, match=r"is a folder; a result store is a file"):
        ResultStore(tmp_path)


def test_result_store__a_path_under_a_file_is_refused_with_a_message_naming_it(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(TauEnvError, match="cannot create its folder"):
        ResultStore(blocker / "runs.sqlite")
