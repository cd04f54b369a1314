"""A missing or rejected API key, or an unknown model, stops a run at once (issue 15).

Before, litellm reported a missing key as a server error (500): each episode was retried
with backoff for about 40 s before failing, 17 minutes for the default 420 tasks. Now no
retry is attempted, the run stops with one line naming the provider and the variable to set,
and nothing is stored as a pass. Wall time is not asserted; the retries are counted instead
(a recording retry policy sees every wait the client would sleep).
"""

from typing import ClassVar

import pytest

from tau_env.cli.main import main
from tau_env.errors import ModelAccessError
from tau_env.llm import RetryPolicy
from tau_env.rollout import LocalBackend, ParticipantSpec, RunConfig, create_run, run
from tau_env.store import ResultStore
from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply

TASKS = ("create_task", "complete_task", "reopen_task", "delete_refused")


class CountingRetry(RetryPolicy):
    """The default policy, counting the backoffs it computes (one per retry)."""

    waits: ClassVar[list[float]] = []

    def delay(self, retry, fraction=0.0):
        seconds = super().delay(retry, fraction)
        CountingRetry.waits.append(seconds)
        return seconds


@pytest.fixture(autouse=True)
def _no_key(monkeypatch):
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_BASE", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    CountingRetry.waits = []
    monkeypatch.setattr("tau_env.llm.client.RetryPolicy", CountingRetry)


@pytest.mark.parametrize("route", ["auto", "litellm"])
def test_run_without_an_api_key__stops_at_once_with_one_line_and_stores_nothing(
    tmp_path, capsys, route
):
    store = str(tmp_path / "runs.sqlite")
    arguments = ["run", "--domain", "mock", "--tasks", ",".join(TASKS), "--trials", "10"]
    arguments += ["--store", store, "--run", "nokey"]  # 40 episodes
    arguments += ["--agent", "llm", "--agent-model", "gpt-4.1", "--no-progress"]
    if route == "litellm":  # the litellm route too (the CLI has no flag; the spec has llm_args)
        arguments = [*arguments[:-1], "--run", "nokey2"]
    code = _main_with_route(arguments, route)
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1 and err.startswith("tau-env: error: no API key for")
    assert "OPENAI_API_KEY" in err and "openai" in err.lower()
    assert CountingRetry.waits == []  # not one retry (before: 4 per episode, 40 episodes)
    # Issue 42: a run that cannot start writes nothing (it stored an empty run before, which
    # then blocked `report --all`); the store is not even created.
    assert not (tmp_path / "runs.sqlite").exists()


def _main_with_route(arguments, route):
    if route == "auto":
        return main(arguments)
    import tau_env.cli.run as run_command

    original = run_command.participant_spec

    def spec_with_route(args, side):
        spec = original(args, side)
        return spec.model_copy(update={"llm_args": {"route": route}}) if spec.model else spec

    run_command.participant_spec = spec_with_route
    try:
        return main(arguments)
    finally:
        run_command.participant_spec = original


def test_litellm_route__names_the_providers_variable(tmp_path):
    config = RunConfig(
        run_id="claude",
        domain="mock",
        task_ids=TASKS,
        trials=10,
        agent=ParticipantSpec(kind="llm", model="anthropic/claude-sonnet-4-5"),
        user=ParticipantSpec(kind="scripted"),
    )
    with ResultStore(tmp_path / "runs.sqlite") as store:
        with pytest.raises(ModelAccessError, match="set ANTHROPIC_API_KEY"):
            create_run(store, config)  # checked before the run is recorded (issue 42)
            run(store, config)
        assert store.episode_count("claude") == 0 and store.runs() == []
    assert CountingRetry.waits == []


@pytest.mark.parametrize("status", [401, 404])
def test_a_rejected_key_or_unknown_model__stops_the_run_after_the_calls_in_flight(tmp_path, status):
    with FakeOpenAIServer(lambda request: FakeReply.error(status, "refused")) as server:
        config = RunConfig(
            run_id="refused",
            domain="mock",
            task_ids=TASKS,
            trials=10,
            agent=ParticipantSpec(kind="llm", model=server.model(), api_base=server.base_url),
            user=ParticipantSpec(kind="scripted"),
        )
        with ResultStore(tmp_path / "runs.sqlite") as store:
            create_run(store, config)
            with pytest.raises(ModelAccessError) as caught:
                run(store, config, backend=LocalBackend(concurrency=4))
            assert store.episode_count("refused") == 0 and store.failures("refused") == []
        requests, base_url = len(server.requests), server.base_url
    assert requests <= 4  # the episodes in flight asked once each; the other 36 never started
    assert CountingRetry.waits == []
    word = "does not know model" if status == 404 else "rejected the API key"
    assert word in str(caught.value) and base_url in str(caught.value)
