import pytest

from tau_env.rollout import ParticipantSpec, RunConfig
from tau_env.store import ResultStore
from tests.rollout import agents

MOCK_TASKS = ("create_task", "complete_task", "reopen_task", "delete_refused")


@pytest.fixture
def store(tmp_path):
    with ResultStore(tmp_path / "runs.sqlite") as opened:
        yield opened


@pytest.fixture(autouse=True)
def _reset_test_agents():
    agents.OUTAGE["active"] = True
    agents.IN_FLIGHT.update(now=0, max=0)


def mock_config(
    run_id="r",
    *,
    agent="oracle",
    user="scripted",
    trials=2,
    tasks=MOCK_TASKS,
    domain="mock",
    **settings,
):
    return RunConfig(
        run_id=run_id,
        domain=domain,
        task_ids=tuple(tasks),
        trials=trials,
        agent=ParticipantSpec(kind=agent),
        user=ParticipantSpec(kind=user),
        **settings,
    )
