"""One episode whose text has no UTF-8 form never costs the run the others.

A lone surrogate (``"\\ud83d"``: what a JSON ``\\ud83d`` escape in a model's reply decodes
to) once aborted a 120-episode run with 0 stored, because the episodes of one turn shared a
transaction and pydantic could not write the text. Now each episode has its own transaction
and such text is stored escaped, losslessly.
"""

import json
import sqlite3

import pytest

from tau_env.cli.main import main
from tau_env.rollout import ParticipantSpec, RunConfig, create_run, run, run_report
from tau_env.rollout.export import export_run
from tau_env.rollout.process_backend import ProcessBackend
from tau_env.rollout.runner import LocalBackend
from tau_env.store.records import EpisodeRecord, ParticipantInfo
from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply
from tests.rollout import agents
from tests.rollout.conftest import MOCK_TASKS, mock_config

HALF_EMOJI = "\ud83d"


@pytest.fixture
def surrogate_task(monkeypatch):
    """The first telecom test task gets the surrogate; the other 119 stay clean."""
    from tau_env.loader import load_tasks

    task_ids = [task.id for task in load_tasks("telecom", split="test")]
    assert len(task_ids) == 120
    monkeypatch.setenv(agents.SURROGATE_TASK, task_ids[0])
    return task_ids[0]


def _surrogate_messages(store, run_id):
    return [
        message["content"]
        for episode in store.episodes(run_id)
        for message in episode.trajectory
        if HALF_EMOJI in (message.get("content") or "")
    ]


def test_surrogate_run__stores_all_120_episodes_and_the_text_exactly(
    tmp_path, capsys, surrogate_task
):
    store = str(tmp_path / "runs.sqlite")
    argv = ["run", "--split", "test", "--agent", "tests.rollout.agents:SurrogateOracle"]
    code = main([*argv, "--run", "s", "--store", store, "--quiet"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "pass^1=1.000 (120 tasks x 1 trial," in captured.out
    from tau_env.store import ResultStore

    with ResultStore(store) as opened:
        assert opened.episode_count("s") == 120 and opened.failures("s") == []
        texts = _surrogate_messages(opened, "s")
        assert texts and all(text.endswith(HALF_EMOJI) for text in texts)
        (episode,) = [e for e in opened.episodes("s") if e.task_id == surrogate_task]
        assert any(HALF_EMOJI in (m.get("content") or "") for m in episode.trajectory)
    # report, JSON report and export read the run (the export's JSON escapes the surrogate)
    assert main(["report", "--store", store, "--run", "s", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["episodes"] == 120
    out = tmp_path / "results.json"
    assert main(["export", "--store", store, "--run", "s", "--out", str(out)]) == 0
    exported = json.loads(out.read_text(encoding="utf-8"))
    assert any(
        HALF_EMOJI in (m.get("content") or "")
        for sim in exported["simulations"]
        for m in sim["messages"]
    )


def test_surrogate_run__broken_by_the_old_batch_write_resumes_to_120(
    tmp_path, capsys, surrogate_task
):
    """The old behaviour left the run created with 0 episodes stored; resume completes it."""
    store = str(tmp_path / "runs.sqlite")
    argv = ["run", "--split", "test", "--agent", "tests.rollout.agents:SurrogateOracle"]
    assert main([*argv, "--run", "s", "--store", store, "--tasks", surrogate_task, "-q"]) == 0
    db = sqlite3.connect(store)
    # the state the old code left: a run of 120 tasks with no episode at all
    config = json.loads(db.execute("SELECT config FROM runs").fetchone()[0])
    from tau_env.loader import load_tasks
    from tau_env.rollout.provenance import run_fingerprint

    config["task_ids"] = [task.id for task in load_tasks("telecom", split="test")]
    fingerprint = run_fingerprint(RunConfig.model_validate(config))
    with db:
        db.execute("DELETE FROM episodes")
        db.execute("UPDATE runs SET config = ?, fingerprint = ?", (json.dumps(config), fingerprint))
    db.close()
    capsys.readouterr()
    agent = ["--agent", "tests.rollout.agents:SurrogateOracle"]  # code: named again
    assert main(["resume", "--store", store, "--run", "s", *agent, "--quiet"]) == 0
    assert "pass^1=1.000 (120 tasks x 1 trial," in capsys.readouterr().out
    db = sqlite3.connect(store)
    assert db.execute("SELECT COUNT(*) FROM episodes").fetchone()[0] == 120


def test_run__each_episode_is_committed_in_its_own_transaction(store):
    commits = []
    store._db.set_trace_callback(lambda sql: commits.append(sql) if sql == "COMMIT" else None)
    config = mock_config(trials=4)
    create_run(store, config)
    commits.clear()
    summary = run(store, config, backend=LocalBackend(concurrency=8))
    assert summary.finished == 16 == store.episode_count("r")
    assert len(commits) == 16  # one per episode: none waits for another to be written


class _Backend:
    """Hands the runner the mock oracle's records, one of them holding an object JSON lacks."""

    def __init__(self, unstorable_task):
        self.unstorable_task = unstorable_task

    async def execute(self, config, versions, units, sink):
        for unit in units:
            trajectory = [{"role": "assistant", "content": "hi"}]
            if unit.task_id == self.unstorable_task and unit.trial == 0:
                trajectory.append({"role": "user", "content": "hi", "extra": object()})
            sink(
                EpisodeRecord(
                    run_id=config.run_id,
                    task_id=unit.task_id,
                    trial=unit.trial,
                    seed=unit.seed,
                    reward=1.0,
                    termination="user_stop",
                    grade={},
                    trajectory=trajectory,
                    steps=1,
                    agent=ParticipantInfo(implementation="oracle"),
                    user=ParticipantInfo(implementation="scripted"),
                    started_at=0.0,
                    duration=0.0,
                )
            )


def test_run__an_episode_that_cannot_be_stored_is_one_recorded_failure_and_resume_completes(
    store,
):
    config = mock_config(trials=2)
    create_run(store, config)
    summary = run(store, config, backend=_Backend("complete_task"))
    assert (summary.finished, summary.failed) == (7, 1)
    (failure,) = store.failures("r")
    assert (failure.task_id, failure.trial, failure.kind) == ("complete_task", 0, "crash")
    assert "could not be stored" in failure.error and "object" in failure.error
    again = run(store, config, backend=_Backend(None))
    assert (again.skipped, again.finished, again.complete) == (7, 1, True)
    assert run_report(store, "r").failed_attempts == 1  # the failure is kept


@pytest.mark.parametrize("workers", [1, 2])
def test_surrogate__crosses_worker_processes_and_reaches_the_export(store, workers, monkeypatch):
    monkeypatch.setenv(agents.SURROGATE_TASK, "complete_task")
    backend = LocalBackend() if workers == 1 else ProcessBackend(workers, 4, None)
    config = mock_config(agent="tests.rollout.agents:SurrogateOracle", trials=1)
    create_run(store, config)
    assert run(store, config, backend=backend).finished == len(MOCK_TASKS)
    assert _surrogate_messages(store, "r")
    exported = json.dumps(export_run(store, "r"))
    assert "\\ud83d" in exported


def _two_sided(stop_text):
    """The agent greets with tools offered; the LLM user opens, then says `stop_text`."""

    def script(request):
        if "get_users" in request.tool_names:
            return FakeReply.text("Anything else? " + HALF_EMOJI)  # the agent's half emoji
        spoken = sum(1 for m in request.messages if m["role"] == "assistant")
        return FakeReply.text("Hello, please check my tasks." if spoken == 0 else stop_text)

    return script


@pytest.mark.parametrize("route", ["lean", "litellm"])
def test_llm_reply__goodbye_with_half_an_emoji_is_stored(store, monkeypatch, route):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake")
    with FakeOpenAIServer(_two_sided(f"Goodbye {HALF_EMOJI} ###STOP###")) as server:
        spec = ParticipantSpec(
            kind="llm", model=server.model(), api_base=server.base_url, llm_args={"route": route}
        )
        config = RunConfig(
            run_id="llm", domain="mock", task_ids=MOCK_TASKS, trials=2, agent=spec, user=spec
        )
        create_run(store, config)
        summary = run(store, config)
        requests = server.requests
    assert (summary.finished, summary.failed) == (8, 0)
    # The user model was sent the agent's half emoji: as its JSON escape on the lean route (the
    # server reads back the same text), as U+FFFD through litellm (which encodes UTF-8 itself).
    sent = {m.get("content") for r in requests for m in r.messages}
    expected = HALF_EMOJI if route == "lean" else "\ufffd"
    assert f"Anything else? {expected}" in sent
    for episode in store.episodes("llm"):
        contents = [m.get("content") for m in episode.trajectory]
        assert f"Goodbye {HALF_EMOJI} ###STOP###" in contents
        assert f"Anything else? {HALF_EMOJI}" in contents  # sent back to the model, then stored
        assert episode.termination == "user_stop"
