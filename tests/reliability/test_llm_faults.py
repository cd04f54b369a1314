"""LLM faults injected through the fake server, in full runs through the runner (issue 9, item 3).

A scripted model plays each episode's gold step correctly, then answers the closing turn with a
fault. Had the runner ignored the fault and graded the world, every faulty episode would pass
(its database is right), so a reward of 0 or an excluded episode is the fault's doing:

* 429, 500, a body that is not a completion, a completion without a choice (``{}``,
  ``{"choices": []}``: the provider returned nothing), a timeout: retried with backoff, then
  recorded as infrastructure failures (no episode; pass^k refuses the run until a resume
  replays them);
* malformed tool-call JSON, an empty reply (a choice whose message is empty): the participant's
  error, scored 0, never retried and never replayed by a resume (except an empty reply of the
  user's model: asked again, then an infrastructure failure, as in issue 41);
* a context-window error: deterministic, never retried, scored 0 (``context_window_exceeded``).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import ClassVar

import pytest

from tau_env.llm import RetryPolicy
from tau_env.rollout import IncompleteRun, ParticipantSpec, RunConfig, create_run, run, run_report
from tau_env.rollout.export import export_run
from tau_env.rollout_seeds import episode_seed
from tau_env.store import ResultStore
from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply
from tests.reliability.tally import count

TASKS = {  # mock tasks graded on the DB alone, and their one gold step
    "complete_task": ("update_task_status", {"task_id": "task_1", "status": "completed"}),
    "reopen_task": ("update_task_status", {"task_id": "task_2", "status": "pending"}),
}
CONTEXT = "This model's maximum context length is 8192 tokens. context_length_exceeded"
TIMEOUT = 0.25  # seconds per call (llm_args); the fake answers late by 4x that
FAULTS = {
    "429": lambda: FakeReply.error(429, "rate limited"),
    "500": lambda: FakeReply.error(500, "internal error"),
    "garbage body": lambda: FakeReply(raw_body="<html>502 Bad Gateway</html>"),
    "timeout": lambda: FakeReply.timeout(4 * TIMEOUT, FakeReply.text("too late")),
    "malformed tool call": lambda: FakeReply.malformed_tool_call("update_task_status"),
    "empty reply": FakeReply.empty,
    "no choices": lambda: FakeReply(raw_body='{"choices": []}'),
    "empty object": lambda: FakeReply(raw_body="{}"),
    "context window": lambda: FakeReply.error(400, CONTEXT),
}
INFRA = {"429", "500", "garbage body", "timeout", "no choices", "empty object"}
RETRIES = 2


class RecordingRetry(RetryPolicy):
    """Fast backoff that records each delay it is asked for (retry number -> seconds)."""

    log: ClassVar[list[tuple[int, float]]] = []

    def delay(self, retry: int, fraction: float = 0.0) -> float:
        seconds = super().delay(retry, fraction)
        RecordingRetry.log.append((retry, seconds))
        return seconds


@pytest.fixture(autouse=True)
def _fast_backoff(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake")
    RecordingRetry.log = []
    policy = RecordingRetry(max_retries=RETRIES, initial_delay=0.002, multiplier=3.0, jitter=0.0)
    monkeypatch.setattr("tau_env.llm.client.RetryPolicy", lambda: policy)


class FaultyModel:
    """The agent's model: the episode's gold step, then the episode's fault (or "Done")."""

    def __init__(self, faults_by_seed: dict[int, str], task_by_seed: dict[int, str]):
        self.faults_by_seed = faults_by_seed
        self.task_by_seed = task_by_seed
        self.healed: set[str] = set()
        self.sent: Counter[str] = Counter()

    def __call__(self, request) -> FakeReply:
        seed = request.body["seed"]
        if request.last_message.get("role") != "tool":
            return FakeReply.tool_call(*TASKS[self.task_by_seed[seed]])
        fault = self.faults_by_seed.get(seed, "none")
        if fault == "none" or fault in self.healed:
            return FakeReply.text("Done: your task is updated.")
        self.sent[fault] += 1
        return FAULTS[fault]()


def _config(server, run_id: str, trials: int) -> RunConfig:
    agent = ParticipantSpec(
        kind="llm", model=server.model(), api_base=server.base_url, llm_args={"timeout": TIMEOUT}
    )
    return RunConfig(
        run_id=run_id,
        domain="mock",
        task_ids=tuple(TASKS),
        trials=trials,
        agent=agent,
        user=ParticipantSpec(kind="gold"),
    )


def _plan(kinds: list[str], trials: int) -> tuple[dict[int, str], dict[int, str], dict]:
    faults, tasks, by_unit = {}, {}, {}
    for task_id in TASKS:
        for trial in range(trials):
            seed = episode_seed(300, task_id, trial)
            faults[seed], tasks[seed] = kinds[trial % len(kinds)], task_id
            by_unit[(task_id, trial)] = kinds[trial % len(kinds)]
    return faults, tasks, by_unit


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_each_fault__is_classified_and_never_a_pass(tmp_path, fault):
    faults, tasks, _ = _plan([fault], 1)
    model = FaultyModel(faults, tasks)
    with ResultStore(tmp_path / "runs.sqlite") as store, FakeOpenAIServer(model) as server:
        config = _config(server, "faulty", trials=1)
        create_run(store, config)
        summary = run(store, config)
        episodes = list(store.episodes("faulty"))
        failures = store.failures("faulty")
        sent = model.sent[fault]
    count("LLM fault replies injected (runner, one kind per run)", fault, sent)
    if fault in INFRA:
        assert (summary.finished, summary.failed) == (0, 2) and episodes == []
        assert {f.kind for f in failures} == {"infrastructure"}
        assert all(f"after {RETRIES + 1} attempt(s)" in f.error for f in failures)
        assert sent == 2 * (RETRIES + 1)  # two episodes, each call tried 1 + RETRIES times
        assert sorted(retry for retry, _ in RecordingRetry.log) == [1, 1, 2, 2]  # per call
        assert {seconds for _, seconds in RecordingRetry.log} == {0.002, 0.006}  # growing
    else:
        assert (summary.finished, summary.failed) == (2, 0) and failures == []
        assert [e.reward for e in episodes] == [0.0, 0.0]
        assert RecordingRetry.log == [], "a participant fault was retried"
        expected = {
            "malformed tool call": ("too_many_errors", 10),  # the default max_errors
            "context window": ("context_window_exceeded", 1),
        }.get(fault, ("agent_error", 1))
        assert {e.termination for e in episodes} == {expected[0]}
        assert sent == 2 * expected[1]
        for episode in episodes:  # the gold step was done: only the fault stands in the way
            calls = [m for m in episode.trajectory if m.get("tool_calls")]
            assert calls[0]["tool_calls"][0]["name"] == "update_task_status"


def test_faults_mixed_in_one_run__only_healthy_episodes_count_and_resume_replays_infra(tmp_path):
    kinds = ["none", *sorted(FAULTS)]
    trials = len(kinds)
    faults, tasks, by_unit = _plan(kinds, trials)
    model = FaultyModel(faults, tasks)
    with ResultStore(tmp_path / "runs.sqlite") as store, FakeOpenAIServer(model) as server:
        config = _config(server, "mixed", trials=trials)
        create_run(store, config)
        first = run(store, config)
        infra_units = {unit for unit, kind in by_unit.items() if kind in INFRA}
        assert first.failed == len(infra_units) and first.finished == 2 * trials - len(infra_units)

        # pass^k is refused while infrastructure failures are outstanding; they are listed
        with pytest.raises(IncompleteRun, match=f"{len(infra_units)} infrastructure"):
            run_report(store, "mixed")
        outstanding = {(f.task_id, f.trial) for f in store.failures("mixed", outstanding=True)}
        assert outstanding == infra_units
        exported = export_run(store, "mixed")
        infra_rows = [
            s for s in exported["simulations"] if s["termination_reason"] == "infrastructure_error"
        ]
        assert {(s["task_id"], s["trial"]) for s in infra_rows} == infra_units
        assert all(s["reward_info"] is None for s in infra_rows)

        # the provider recovers: a resume plays exactly the infrastructure failures again
        model.healed = set(INFRA)
        before = len(server.requests)
        kept = {(e.task_id, e.trial): e.started_at for e in store.episodes("mixed")}
        second = run(store, config)
        assert (second.skipped, second.finished, second.failed) == (len(kept), len(infra_units), 0)
        assert len(server.requests) - before == 2 * len(infra_units)  # gold step + "Done" each
        for episode in store.episodes("mixed"):
            if (episode.task_id, episode.trial) in kept:
                assert episode.started_at == kept[(episode.task_id, episode.trial)]
        report = run_report(store, "mixed")
        assert run(store, config).finished == 0  # nothing left: participant faults are final

    healthy = {"none", *INFRA}
    for task in report.tasks:
        expected = [1.0 if by_unit[(task.task_id, t)] in healthy else 0.0 for t in range(trials)]
        assert task.rewards == expected
        assert task.successes == len(healthy)
    assert report.pass_hat_k[1] == pytest.approx(len(healthy) / trials)
    assert report.pass_hat_k[trials] == 0.0  # some trial of every task failed
    assert report.failed_attempts == len(infra_units)  # listed, never silently dropped
    participant = {k for k in FAULTS if k not in INFRA}
    assert sum(report.terminations.values()) == 2 * trials
    assert report.terminations["agent_error"] == 2 * len(
        participant - {"malformed tool call", "context window"}
    )
    assert json.dumps(report.to_json())  # the report serializes
    for kind, n in model.sent.items():
        count("LLM fault replies injected (mixed run, then resumed)", kind, n)


@pytest.mark.parametrize(
    "fault", ["500", "timeout", "empty reply", "no choices", "empty object", "context window"]
)
def test_user_side_faults__are_the_users_or_infrastructures_never_a_pass(tmp_path, fault):
    """The oracle agent does the work; the LLM user's model fails when it should say goodbye."""
    sent = Counter()

    def user_model(request):
        spoken = sum(1 for m in request.messages if m["role"] == "assistant")
        if spoken == 0:
            return FakeReply.text("Please mark task_1 as completed.")
        sent[fault] += 1
        return FAULTS[fault]()

    with ResultStore(tmp_path / "runs.sqlite") as store, FakeOpenAIServer(user_model) as server:
        user = ParticipantSpec(
            kind="llm",
            model=server.model(),
            api_base=server.base_url,
            llm_args={"timeout": TIMEOUT},
        )
        config = RunConfig(
            run_id="user-faults",
            domain="mock",
            task_ids=("complete_task",),
            trials=2,
            agent=ParticipantSpec(kind="oracle"),
            user=user,
        )
        create_run(store, config)
        summary = run(store, config)
        episodes = list(store.episodes("user-faults"))
        failures = store.failures("user-faults")
    count("LLM fault replies injected (user side)", fault, sent[fault])
    # Issue 41: the user's empty reply is its provider's failure (asked again, EMPTY_RETRIES =
    # RETRIES times), never the customer's.
    if fault in INFRA or fault == "empty reply":
        assert (summary.finished, len(failures)) == (0, 2) and sent[fault] == 2 * (RETRIES + 1)
        assert {f.kind for f in failures} == {"infrastructure"}
    else:
        termination = "context_window_exceeded" if fault == "context window" else "user_error"
        assert [(e.reward, e.termination) for e in episodes] == [(0.0, termination)] * 2
        assert failures == [] and sent[fault] == 2
        assert all(
            e.trajectory[2]["tool_calls"][0]["name"] == "update_task_status" for e in episodes
        )
