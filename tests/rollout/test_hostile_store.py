"""Reports, pages and exports of stores holding values no run writes (issue 56).

A store is data that may come from someone else: every stored value renders (a number no
calendar or JSON can hold as null / "n/a"), and an output file is replaced whole or not at all.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tau_env.actions import SendMessage, Stop
from tau_env.cli.main import main

Edit = Callable[[dict[str, Any], dict[str, Any]], None]


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """A store with one run of the mock domain (two trials of every task)."""
    store = tmp_path_factory.mktemp("played") / "runs.sqlite"
    assert main(["run", "--domain", "mock", "--store", str(store), "--run", "r", "--trials",
                 "2", "--quiet"]) == 0  # fmt: skip
    return store


def _reward(value: float) -> Edit:
    def edit(body: dict[str, Any], stats: dict[str, Any]) -> None:
        body["reward"] = value
        body["grade"]["reward"] = value

    return edit


def _duration(value: float) -> Edit:
    def edit(body: dict[str, Any], stats: dict[str, Any]) -> None:
        body["duration"] = stats["duration"] = value

    return edit


def _started(value: float) -> Edit:
    def edit(body: dict[str, Any], stats: dict[str, Any]) -> None:
        body["started_at"] = value

    return edit


def _cost(value: float) -> Edit:
    def edit(body: dict[str, Any], stats: dict[str, Any]) -> None:
        stats["agent_usage"]["cost"] = value

    return edit


EDITS: dict[str, Edit] = {
    "a reward of NaN": _reward(float("nan")),
    "an infinite reward": _reward(float("inf")),
    "a duration of 1e308": _duration(1e308),
    "a duration of NaN": _duration(float("nan")),
    "a start in year 1": _started(-62135596800.0),
    "a start past year 9999": _started(1e20),
    "a cost of NaN": _cost(float("nan")),
}


@pytest.mark.parametrize("name", list(EDITS))
def test_outputs__render_any_stored_value(name, played, tmp_path, capsys):
    store = tmp_path / "runs.sqlite"
    shutil.copy(played, store)
    with sqlite3.connect(store) as db:
        rowid, body, stats = db.execute("SELECT rowid, body, stats FROM episodes").fetchone()
        body, stats = json.loads(body), json.loads(stats)
        EDITS[name](body, stats)
        db.execute(
            "UPDATE episodes SET body = ?, stats = ? WHERE rowid = ?",
            (json.dumps(body), json.dumps(stats), rowid),
        )
    common = ["--store", str(store)]
    for argv in (
        ["report", "--run", "r"],
        ["report", "--run", "r", "--json"],
        ["report", "--all"],
        ["report", "--run", "r", "--html", str(tmp_path / "page.html")],
        ["export", "--run", "r", "--out", str(tmp_path / "results.json")],
        ["runs"],
    ):
        assert main([*argv, *common]) in (0, 1), (argv, capsys.readouterr().err)
    assert "<html" in (tmp_path / "page.html").read_text()
    exported = json.loads((tmp_path / "results.json").read_text())
    assert len(exported["simulations"]) == 20


class HalfAnEmoji:
    """An agent that says half an emoji (a lone surrogate, as a cut model reply holds), then
    stops."""

    def __init__(self, task: object = None) -> None:
        self.said = False

    def act(self, view: object, context: object) -> SendMessage | Stop:
        if self.said:
            return Stop()
        self.said = True
        return SendMessage(content="here is half an emoji: \ud83d, sorry")


def test_outputs__a_lone_surrogate_in_an_episode_renders(tmp_path):
    store = str(tmp_path / "runs.sqlite")
    agent = f"{__name__}:HalfAnEmoji"
    assert main(["run", "--domain", "mock", "--store", store, "--run", "s", "--agent", agent,
                 "--tasks", "create_task", "--quiet"]) == 0  # fmt: skip
    page = tmp_path / "page.html"
    page.write_text("<html>old</html>")

    assert main(["report", "--store", store, "--run", "s", "--html", str(page)]) == 0
    assert main(["export", "--store", store, "--run", "s", "--out", str(tmp_path / "r.json")]) == 0

    assert "half an emoji: \ufffd, sorry" in page.read_text(encoding="utf-8")
    messages = json.loads((tmp_path / "r.json").read_text())["simulations"][0]["messages"]
    assert any("half an emoji: \ud83d" in (m.get("content") or "") for m in messages)
