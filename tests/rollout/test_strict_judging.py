"""Runs with ``--grading strict``: the strict reading beside the official figures.

Official airline lists NL assertions outside its basis (DB x COMMUNICATE): a strict run with a
judge rules on them on the driver, stores the ruling in the grade, and never changes a reward.
"""

import json

import pytest

from tau_env.cli.main import main
from tau_env.store import ResultStore
from tau_env.testing.fake_judge import judge_script
from tau_env.testing.fake_openai import FakeOpenAIServer

TASKS = "5,6,7"


@pytest.fixture(autouse=True)
def _api_key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake")  # the SDK wants one; the fake ignores it


def _run(data_dir, store, *extra):
    return [
        "run", "--domain", "airline", "--data-dir", str(data_dir), "--tasks", TASKS,
        "--store", store, "--run", "r", "--no-progress", *extra,
    ]  # fmt: skip


def test_strict_run__reported_beside_and_recorded(data_dir, tmp_path, capsys):
    store = str(tmp_path / "runs.sqlite")
    assert main([*_run(data_dir, store, "--agent", "random", "--grading", "strict")]) == 0
    out = capsys.readouterr().out
    assert "strict reading (the task's listed checks added to its basis" in out
    with ResultStore(store) as opened:
        assert opened.run("r").config["grading"] == "strict"
    assert main(["report", "--store", store, "--json"]) == 0
    (report,) = json.loads(capsys.readouterr().out)
    assert report["grading"] == "strict"
    official = report["pass_hat_k"]["1"]
    strict = report["strict"]["pass_hat_k"]["1"]
    assert strict <= official
    for task, strict_task in zip(report["tasks"], report["strict"]["tasks"], strict=True):
        for reward, strict_reward in zip(task["rewards"], strict_task["rewards"], strict=True):
            assert strict_reward <= reward


def test_official_run__has_no_strict_figures(data_dir, tmp_path, capsys):
    store = str(tmp_path / "runs.sqlite")
    assert main([*_run(data_dir, store, "--quiet")]) == 0
    assert "strict" not in capsys.readouterr().out


def test_strict_run_with_a_judge__rules_outside_the_basis_without_changing_rewards(
    data_dir, tmp_path, capsys
):
    store = str(tmp_path / "runs.sqlite")
    with FakeOpenAIServer(judge_script(lambda text: False)) as server:
        judge = ["--judge-model", server.model(), "--judge-api-base", server.base_url]
        assert main([*_run(data_dir, store, "--grading", "strict", *judge, "--quiet")]) == 0
        calls = len(server.requests)
    line = capsys.readouterr().out
    assert "pass^1=1.000" in line and "strict pass^1=0.000" in line  # oracle: official 1.0
    assert 1 <= calls <= 3  # one ruling per episode at most
    with ResultStore(store) as opened:
        for record in opened.episodes("r"):
            assert record.reward == 1.0
            assert record.grade["reward_basis"] == ["DB", "COMMUNICATE"]
            assert record.grade["checks"]["NL_ASSERTION"]["reward"] == 0.0


def test_strict_run__resume_with_a_judge_rules_on_the_stored_episodes(data_dir, tmp_path, capsys):
    store = str(tmp_path / "runs.sqlite")
    assert main([*_run(data_dir, store, "--grading", "strict", "--quiet")]) == 0
    assert "strict pass^1=1.000" in capsys.readouterr().out  # no judge: NL stays out
    with FakeOpenAIServer(judge_script(lambda text: True)) as server:
        judge = ["--judge-model", server.model(), "--judge-api-base", server.base_url]
        assert main(["resume", "--store", store, "--run", "r", *judge, "--quiet"]) == 0
        assert len(server.requests) >= 1
    assert "strict pass^1=1.000" in capsys.readouterr().out
    with ResultStore(store) as opened:
        checks = [r.grade["checks"].get("NL_ASSERTION") for r in opened.episodes("r")]
    assert all(check is not None and check["reward"] == 1.0 for check in checks)
