"""What the README's first screen and Quickstart promise, checked against the code."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import tau_env
from tau_env.cli.main import main
from tau_env.env.conversation import SideView
from tau_env.messages import AssistantMessage, ToolMessage, UserMessage

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")
FIRST_SCREEN = README.split("\n## ", 1)[0]


def test_readme__first_screen_says_what_the_main_job_demonstrates():
    text = " ".join(FIRST_SCREEN.split())
    assert "*oracle* agent, which reads each task's gold plan" in text
    assert "pass^k of 1.000 holds by construction" in text
    assert "tau-env run --agent random" in FIRST_SCREEN


def test_readme__skip_count_without_official_data_is_the_one_it_states(tmp_path):
    stated = re.search(r"(\d+) tests need the official τ²-bench data", FIRST_SCREEN)
    assert stated, "the first screen must say how many tests need the official data"
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "official_data", "tests"],
        cwd=REPO,
        env={**_environment(), "TAU2_DATA_DIR": str(tmp_path / "no-data")},
        capture_output=True,
        text=True,
    )
    found = re.search(r"^(\d+)/\d+ tests collected", result.stdout, re.MULTILINE)
    assert found, result.stdout[-2000:] + result.stderr[-2000:]
    assert int(found[1]) == int(stated[1]), (
        f"without the data {found[1]} tests skip, the README says {stated[1]}: update the "
        "number in README.md's first screen"
    )


def _environment() -> dict[str, str]:
    return {name: value for name, value in os.environ.items() if name != "PYTEST_ADDOPTS"}


def test_readme__random_agent_scores_what_the_first_screen_says(tmp_path, capsys):
    stated = re.search(r"--agent random` plays .*?pass\^1 about\s+([\d.]+)", FIRST_SCREEN, re.S)
    assert stated
    store = str(tmp_path / "runs.sqlite")
    assert main(["run", "--agent", "random", "--json", "--no-progress", "--store", store]) == 0
    score = json.loads(capsys.readouterr().out)["pass_hat_k"]["1"]
    assert abs(score - float(stated[1])) < 0.02, score


def test_readme__view_returns_the_side_view_it_describes():
    assert "`env.unwrapped.view(side)` returns that\nside's `SideView`" in README
    env = tau_env.make_env("mock", task_id="complete_task")
    env.reset(seed=0)
    view = env.unwrapped.view("user")
    assert isinstance(view, SideView)
    assert view.history and all(
        isinstance(message, AssistantMessage | UserMessage | ToolMessage)
        for message in view.history
    )
    assert view.inbox == view.history  # the greeting arrived; the user has not acted yet


def test_readme__gymnasium_snippet_runs_offline_without_any_key(monkeypatch):
    # Issue 42: the snippet ended on the LLM-user env, so running it needed an API key.
    (snippet,) = [
        block
        for block in re.findall(r"```python\n(.*?)```", README, re.S)
        if 'gymnasium.make("tau_env/Mock-v0")' in block
    ]
    for name in list(os.environ):
        if name.endswith(("_API_KEY", "_API_BASE", "_BASE_URL")):
            monkeypatch.delenv(name)
    namespace: dict[str, object] = {}
    exec(compile(snippet, "README.md", "exec"), namespace)
    env = namespace["env"]
    assert env.spec.id == "tau_env/Mock-v0"
    assert "messages" in namespace["observation"]
