import json

import pytest

from tau_env.store import ResultStore
from tau_env.store.codec import UnstorableRecord, read_record, record_json, unstorable_failure
from tau_env.store.records import EpisodeRecord, FailureRecord
from tests.store.test_sqlite import _episode, _failure, _run

HALF_EMOJI = "\ud83d"


def _with_text(text):
    return _episode().model_copy(
        update={"trajectory": [{"role": "assistant", "content": text}], "note": text}
    )


@pytest.mark.parametrize(
    "text", ["plain", "caf\u00e9 \U0001f600", f"Goodbye {HALF_EMOJI} ###STOP###", "\udcff\ud800"]
)
def test_record_json__round_trips_any_string_exactly(text):
    record = _with_text(text)
    body = record_json(record)
    body.encode("utf-8")  # always writable as UTF-8 (SQLite, pipes, Ray)
    assert read_record(EpisodeRecord, body) == record


def test_record_json__an_object_without_json_form_is_unstorable():
    record = _episode().model_copy(update={"trajectory": [{"role": "user", "x": object()}]})
    with pytest.raises(UnstorableRecord, match="EpisodeRecord has no JSON form"):
        record_json(record)


def test_read_record__still_refuses_a_record_of_the_wrong_shape():
    with pytest.raises(ValueError, match="validation error"):
        read_record(EpisodeRecord, json.dumps({"run_id": "a"}))


def test_unstorable_failure__is_a_crash_of_that_trial_with_the_reason():
    failure = unstorable_failure(_episode(trial=3), UnstorableRecord("no JSON form: object"))
    assert (failure.task_id, failure.trial, failure.kind) == ("t", 3, "crash")
    assert "could not be stored" in failure.error and "object" in failure.error


def test_store__keeps_a_lone_surrogate_in_episodes_and_failures(tmp_path):
    with ResultStore(tmp_path / "s.sqlite") as store:
        store.create_run(_run("a"))
        record = _with_text(f"Goodbye {HALF_EMOJI}")
        assert store.add_episode(record) is True
        failure = _failure().model_copy(update={"error": f"ValueError: {HALF_EMOJI}"})
        store.add_failure(failure)
    with ResultStore(tmp_path / "s.sqlite") as again:
        assert list(again.episodes("a")) == [record]
        assert again.failures("a") == [failure]
        assert read_record(FailureRecord, record_json(failure)) == failure


def test_store__an_unstorable_episode_writes_nothing_and_the_next_one_is_written(tmp_path):
    with ResultStore(tmp_path / "s.sqlite") as store:
        store.create_run(_run("a"))
        bad = _episode().model_copy(update={"trajectory": [{"x": object()}]})
        with pytest.raises(UnstorableRecord):
            store.add_episode(bad)
        assert store.episode_count("a") == 0
        assert store.add_episode(_episode(trial=1)) is True
        assert store.completed("a") == {("t", 1)}
