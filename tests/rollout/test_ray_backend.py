"""The Ray backend on a local Ray instance: same episodes, same store, same pass^k."""

import pytest

from tau_env.rollout import LocalBackend, create_run, run, run_report
from tests.rollout.conftest import mock_config


def test_ray__same_job_gives_the_same_episodes_and_pass_hat_k(ray, store):
    from tau_env.rollout.ray_backend import RayBackend

    for run_id, backend in (
        ("local", LocalBackend(concurrency=4)),
        ("ray", RayBackend(concurrency=4, llm_concurrency=2, actors=2)),
    ):
        config = mock_config(run_id, agent="random", trials=3)
        create_run(store, config)
        summary = run(store, config, backend=backend)
        assert (summary.finished, summary.failed) == (12, 0)
    local, remote = run_report(store, "local"), run_report(store, "ray")
    assert remote.pass_hat_k == local.pass_hat_k
    assert [t.rewards for t in remote.tasks] == [t.rewards for t in local.tasks]
    trajectories = {
        run_id: {(e.task_id, e.trial): (e.seed, e.trajectory) for e in store.episodes(run_id)}
        for run_id in ("local", "ray")
    }
    assert trajectories["ray"] == trajectories["local"]


def test_ray__the_oracle_passes_everything(ray, store):
    from tau_env.rollout.ray_backend import RayBackend

    config = mock_config(trials=2)
    create_run(store, config)
    run(store, config, backend=RayBackend(concurrency=3))
    assert run_report(store, "r").pass_hat_k == {1: 1.0, 2: 1.0}


def test_ray__async_participants_go_through_the_global_limiter(ray, store):
    from tau_env.rollout.ray_backend import RayBackend

    config = mock_config(agent="tests.rollout.agents:SlowOracle", trials=2)
    create_run(store, config)
    summary = run(store, config, backend=RayBackend(concurrency=6, llm_concurrency=2, actors=2))
    assert (summary.finished, summary.failed) == (8, 0)
    assert run_report(store, "r").pass_hat_k == {1: 1.0, 2: 1.0}


def test_ray__the_limiter_is_one_cluster_wide_semaphore(ray):
    import asyncio

    from tau_env.rollout.ray_backend import Limiter, _LimiterGate

    limiter = ray.remote(Limiter).options(max_concurrency=100).remote(2)

    async def hold():
        async with _LimiterGate(limiter):
            await asyncio.sleep(0.02)

    async def many():
        await asyncio.gather(*(hold() for _ in range(8)))

    asyncio.run(many())
    assert ray.get(limiter.peak.remote()) == 2


def test_ray__a_bad_participant_fails_on_the_driver_before_any_actor(ray, store):
    from tau_env.errors import TauEnvError
    from tau_env.rollout.ray_backend import RayBackend

    config = mock_config(agent="no.such.module:Agent")
    create_run(store, config, check=False)  # create_run's own check refuses it otherwise
    with pytest.raises(TauEnvError, match=r"cannot import 'no\.such\.module'"):
        run(store, config, backend=RayBackend(concurrency=2))


def test_ray__a_refused_key_stops_the_run_with_the_providers_message(ray, store):
    from tau_env.errors import ModelAccessError
    from tau_env.rollout import ParticipantSpec, RunConfig
    from tau_env.rollout.ray_backend import RayBackend
    from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply

    with FakeOpenAIServer(lambda request: FakeReply.error(401, "no")) as server:
        config = RunConfig(
            run_id="refused",
            domain="mock",
            task_ids=("create_task", "complete_task"),
            trials=5,
            agent=ParticipantSpec(kind="llm", model=server.model(), api_base=server.base_url),
            user=ParticipantSpec(kind="scripted"),
        )
        create_run(store, config)
        with pytest.raises(ModelAccessError, match="rejected the API key") as caught:
            run(store, config, backend=RayBackend(concurrency=2, actors=2))
    assert "Traceback" not in str(caught.value)  # tau_env's line, not a remote traceback
    assert store.episode_count("refused") == 0
