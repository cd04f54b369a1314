"""Fixtures: small real runs in one store, a headless Chromium, and the artifacts folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from tau_env.cli.main import main
from tau_env.loader import load_tasks
from tau_env.rollout import ParticipantSpec, RunConfig
from tau_env.store import EpisodeRecord, FailureRecord, ParticipantInfo, ResultStore, RunRecord
from tests.html_report import browser

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts" / "html_report"
"""Screenshots of the browser tests land here (``artifacts/`` is git-ignored)."""

TELECOM_TASKS = 3
MOCK_TASKS = ("create_task", "complete_task", "reopen_task", "delete_refused", "unknown_user")


def both_act(task) -> bool:
    """The task's gold plan has both sides call tools (each side then sees private messages)."""
    actions = task.evaluation_criteria.actions if task.evaluation_criteria else None
    return {action.requestor for action in actions or ()} == {"assistant", "user"}


@pytest.fixture(scope="session")
def runs_store(tmp_path_factory) -> Path:
    """A store with three real runs: telecom oracle, mock oracle, and mock random (failures)."""
    path = tmp_path_factory.mktemp("html_report") / "runs.sqlite"
    tasks = [task.id for task in load_tasks("telecom") if both_act(task)][:TELECOM_TASKS]
    telecom = ",".join(tasks)
    common = ["--store", str(path), "--no-progress", "--trials", "3"]
    mock = ["--domain", "mock", "--tasks", ",".join(MOCK_TASKS)]
    for args in (
        ["--domain", "telecom", "--tasks", telecom, "--run", "telecom-oracle"],
        [*mock, "--run", "mock-oracle"],
        [*mock, "--run", "mock-random", "--agent", "random"],
    ):
        assert main(["run", *common, *args]) == 0
    return path


@pytest.fixture
def store(runs_store):
    with ResultStore(runs_store) as opened:
        yield opened


@pytest.fixture(scope="session")
def chromium(tmp_path_factory):
    """A headless Chromium (selenium driver); skipped when absent, a failure under CI=true."""
    browser.require_browser()
    driver = browser.start_chromium(tmp_path_factory.mktemp("chromium-profile"))
    yield driver
    driver.quit()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


HOSTILE = (
    '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">'
    "</script><script>window.__pwned=3</script><!-- ' & $x^2$ _"
)
"""Text a trajectory may hold; every place the page shows it must keep it inert."""


def _hostile_episode(task_id: str, trial: int, reward: float) -> EpisodeRecord:
    call = {"id": "c1", "name": HOSTILE, "arguments": {"q": HOSTILE}, "requestor": "assistant"}
    return EpisodeRecord(
        run_id=HOSTILE,
        task_id=task_id,
        trial=trial,
        seed=trial,
        reward=reward,
        termination="user_stop",
        grade={
            "reward": reward,
            "termination": "user_stop",
            "reward_basis": ["DB"],
            "breakdown": {"DB": reward},
            "checks": {"DB": {"component": "DB", "reward": reward, "details": [{"x": HOSTILE}]}},
            "note": HOSTILE,
        },
        trajectory=[
            {"role": "assistant", "content": HOSTILE},
            {"role": "user", "content": HOSTILE},
            {"role": "assistant", "tool_calls": [call]},
            {"role": "tool", "id": "c1", "content": HOSTILE, "name": HOSTILE, "error": True},
            {"role": "assistant", "content": "bye"},
        ],
        steps=5,
        agent=ParticipantInfo(implementation=HOSTILE),
        user=ParticipantInfo(implementation="scripted"),
        started_at=0.0,
        duration=0.5,
        note=HOSTILE,
    )


@pytest.fixture
def hostile_store(tmp_path):
    """A store whose run id, domain, task id, messages, grade and errors are all hostile."""
    config = RunConfig(
        run_id=HOSTILE,
        domain=HOSTILE,
        task_ids=(HOSTILE, "plain"),
        trials=2,
        agent=ParticipantSpec(kind=HOSTILE),
        user=ParticipantSpec(kind="scripted"),
    )
    with ResultStore(tmp_path / "hostile.sqlite") as opened:
        opened.create_run(
            RunRecord(
                run_id=HOSTILE,
                created_at=0.0,
                domain=HOSTILE,
                config=config.model_dump(mode="json"),
                fingerprint="-",
                versions={},
            )
        )
        for task_id in (HOSTILE, "plain"):
            for trial in range(2):
                opened.add_episode(_hostile_episode(task_id, trial, float(trial)))
        opened.add_failure(
            FailureRecord(
                run_id=HOSTILE,
                task_id=HOSTILE,
                trial=0,
                seed=0,
                kind="crash",
                error=HOSTILE,
                at=0.0,
                duration=0.1,
            )
        )
        yield opened
