"""``tau-env view``: the store's runs, a run's episodes, one conversation; driven by stdin."""

from __future__ import annotations

import io
import re
import sys

import pytest

from tau_env.cli.main import EXIT_ERROR, main
from tau_env.rollout import create_run, run
from tau_env.store import ResultStore
from tests.rollout.conftest import mock_config

TASKS = ("create_task", "complete_task", "reopen_task", "delete_refused", "unknown_user")


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """Two runs on mock: the oracle (every episode passes) and the random agent (most fail)."""
    path = tmp_path_factory.mktemp("view") / "runs.sqlite"
    with ResultStore(path) as opened:
        for run_id, agent in (("gold", "oracle"), ("noise", "random")):
            config = mock_config(run_id, agent=agent, trials=2, tasks=TASKS)
            create_run(opened, config)
            run(opened, config)
        failed = [s for s in opened.summaries("noise") if s.reward is not None and not s.success]
    assert failed, "the random agent must fail some episodes for --only-failed to show"
    return str(path), len(failed)


def view(monkeypatch, capsys, commands: str, *argv: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(commands))
    code = main(["view", *argv])
    return code, capsys.readouterr().out


def test_view__opens_a_run_then_a_conversation_with_its_grade(store, monkeypatch, capsys):
    path, _ = store
    code, out = view(monkeypatch, capsys, "1\n1\nb\nb\nq\n", "--store", path, "--page-size", "200")
    assert code == 0
    assert "runs (page 1 of 1)" in out
    assert "   1  gold  mock (built-in), agent oracle, user scripted: 10/10 passed" in out
    assert "   2  noise  mock (built-in), agent random" in out
    assert "run gold: 10 episodes (page 1 of 1)" in out
    assert "   1  complete_task  trial 0  reward 1.000  (" in out
    assert "task complete_task, trial 0, seed " in out
    assert "reward 1.000 (" in out and "  DB: met" in out
    assert "agent: Hi! How can I help you today?" in out
    assert "agent calls update_task_status(" in out
    assert "tool result to the agent: " in out


def test_view__only_failed_lists_the_episodes_below_one(store, monkeypatch, capsys):
    path, failed = store
    argv = ["--store", path, "--run", "noise", "--only-failed", "--page-size", "200"]
    code, out = view(monkeypatch, capsys, "", *argv)
    assert code == 0
    assert f"run noise: {failed} failed episodes" in out
    rows = [line for line in out.splitlines() if "  trial " in line]
    assert len(rows) == failed and all("reward 0.000" in row for row in rows)
    code, out = view(monkeypatch, capsys, "", "--store", path, "--run", "gold", "--only-failed")
    assert code == 0 and "run gold: no failed episodes" in out


def test_view__pages_through_a_long_list_and_a_long_conversation(store, monkeypatch, capsys):
    path, _ = store
    commands = "n\nn\np\n4\n\nn\np\nb\nq\n"
    code, out = view(
        monkeypatch, capsys, commands, "--store", path, "--run", "gold", "--page-size", "3"
    )
    assert code == 0
    pages = re.findall(r"run gold: 10 episodes \((page \d of \d)\)", out)
    # n, n, p, then back from the conversation to the page it was opened from
    assert pages == ["page 1 of 4", "page 2 of 4", "page 3 of 4", "page 2 of 4", "page 2 of 4"]
    assert "   4  create_task  trial 1" in out and "  10  " not in out.split("page 3")[0]
    assert "page 1 of " in out and "page 2 of " in out  # the conversation, 3 lines a page
    assert "task create_task, trial 1, seed " in out


def test_view__a_task_opens_its_conversation_directly(store, monkeypatch, capsys):
    path, _ = store
    argv = ["--store", path, "--run", "gold", "--task", "create_task", "--trial", "1"]
    code, out = view(monkeypatch, capsys, "", *argv)
    assert code == 0
    assert out.startswith("task create_task, trial 1, seed ")
    assert "agent calls create_task(" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--run", "gold", "--task", "nope"], "run 'gold' has no episode of task 'nope' trial 0"),
        (["--task", "create_task"], "--task needs --run"),
        (["--run", "other"], "other"),
        (["--page-size", "0"], "--page-size must be >= 1"),
    ],
)
def test_view__mistakes_are_one_line(argv, message, store, monkeypatch, capsys):
    path, _ = store
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["view", "--store", path, *argv]) == EXIT_ERROR
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("tau-env: error: ") and message in line


def test_view__an_empty_store_says_so(tmp_path, monkeypatch, capsys):
    path = tmp_path / "empty.sqlite"
    ResultStore(path).close()
    code, out = view(monkeypatch, capsys, "", "--store", str(path))
    assert code == 0 and out == f"no runs in {path}\n"
