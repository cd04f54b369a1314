"""`ProcessBackend` (``--workers N``): the same runs on several worker processes."""

import pytest

from tau_env.cli.main import main
from tau_env.errors import ModelAccessError
from tau_env.rollout import ParticipantSpec, RunConfig, create_run, run, run_report
from tau_env.rollout.process_backend import ProcessBackend
from tau_env.store import ResultStore
from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply
from tests.rollout.conftest import mock_config


def test_process_backend__plays_every_episode_once_and_scores_like_the_local_one(store):
    config = mock_config("workers", trials=3)
    create_run(store, config)
    summary = run(store, config, backend=ProcessBackend(workers=2, concurrency=4))
    assert (summary.finished, summary.failed, summary.complete) == (12, 0, True)
    local = mock_config("local", trials=3)
    create_run(store, local)
    run(store, local)
    by_unit = {(e.task_id, e.trial): e for e in store.episodes("local")}
    for episode in store.episodes("workers"):
        twin = by_unit[(episode.task_id, episode.trial)]
        assert (episode.reward, episode.trajectory) == (twin.reward, twin.trajectory)
    assert run_report(store, "workers").pass_hat_k == run_report(store, "local").pass_hat_k
    assert run(store, config, backend=ProcessBackend(workers=2)).finished == 0  # resume: done


def test_process_backend__a_refused_key_in_a_worker_stops_the_run(tmp_path):
    with FakeOpenAIServer(lambda request: FakeReply.error(401, "no")) as server:
        spec = ParticipantSpec(kind="llm", model=server.model(), api_base=server.base_url)
        config = RunConfig(
            run_id="refused",
            domain="mock",
            task_ids=("create_task", "complete_task"),
            trials=10,
            agent=spec,
            user=ParticipantSpec(kind="scripted"),
        )
        with ResultStore(tmp_path / "runs.sqlite") as store:
            create_run(store, config)
            with pytest.raises(ModelAccessError, match="rejected the API key"):
                run(store, config, backend=ProcessBackend(workers=2, concurrency=2))
            assert store.episode_count("refused") == 0
        assert len(server.requests) <= 2


def test_workers_option__runs_from_the_command_line_and_refuses_ray(tmp_path, capsys):
    store = str(tmp_path / "runs.sqlite")
    arguments = ["run", "--domain", "mock", "--trials", "2", "--store", store, "--no-progress"]
    assert main([*arguments, "--workers", "2", "--run", "w"]) == 0
    assert "pass^1=1.000" in capsys.readouterr().out
    assert main([*arguments, "--workers", "2", "--backend", "ray", "--run", "r"]) == 2
    assert "--workers is for --backend local" in capsys.readouterr().err
    assert main([*arguments, "--workers", "0", "--run", "z"]) == 2


def test_process_backend__rejects_bad_settings():
    with pytest.raises(ValueError, match="workers"):
        ProcessBackend(workers=0)
    with pytest.raises(ValueError, match="concurrency"):
        ProcessBackend(workers=2, concurrency=0)
