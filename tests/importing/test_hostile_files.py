"""Importing hostile results files (issue 56): each is refused whole, in one line, with exit 2,
nothing of it written, and the files after it on the same command line still imported."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tau_env.cli.main import main
from tau_env.rollout import run_report
from tau_env.store import ResultStore


@pytest.fixture(scope="module")
def base_file(tmp_path_factory) -> Path:
    """A results file tau_env wrote itself: two trials of the mock domain's tasks."""
    folder = tmp_path_factory.mktemp("base")
    store = str(folder / "runs.sqlite")
    assert main(["run", "--domain", "mock", "--store", store, "--run", "b", "--trials", "2",
                 "--quiet"]) == 0  # fmt: skip
    out = folder / "base.json"
    assert main(["export", "--store", store, "--run", "b", "--out", str(out)]) == 0
    return out


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """An edit that puts `value` at the dotted `path` (``simulations.0.seed``)."""

    def edit(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = data
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        node[int(last) if isinstance(node, list) else last] = value

    return edit


RAW: dict[str, str] = {}
"""Placeholder -> JSON text written in its place (``json.dumps`` itself cannot write what
`json.loads` cannot read: nesting past its recursion limit, integers past 4,300 digits)."""


def _raw(text: str) -> str:
    placeholder = f"__raw {len(RAW)}__"
    RAW[placeholder] = text
    return placeholder


HOSTILE: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "nested deeper than json can read": (
        _set("simulations.0.info", _raw("[" * 5_000 + "]" * 5_000)),
        "nested deeper than",
    ),
    "an integer of 5,000 digits": (_set("info.seed", _raw("9" * 5_000)), "is beyond"),
    "a seed of 2**63": (_set("simulations.0.seed", 2**63), "is beyond"),
    "an infinite duration": (_set("simulations.0.duration", float("inf")), "Infinity"),
    "a duration of NaN": (_set("simulations.0.duration", float("nan")), "NaN"),
    "a reward of NaN": (_set("simulations.0.reward_info.reward", float("nan")), "NaN"),
    "a duration of 1e308": (_set("simulations.0.duration", 1e308), "duration"),
    "a start in year 1": (_set("simulations.0.start_time", "0001-01-01T00:00:00"), "not 1"),
    "a start in year 9999": (
        _set("simulations.0.start_time", "9999-12-31T23:59:59"),
        "not 9999",
    ),
    "a lone surrogate in the user's model": (_set("info.user_info.llm", "\ud800"), "surrogate"),
    "a billion trials": (_set("info.num_trials", 10**9), "num_trials"),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_import__a_hostile_file_is_refused_whole_and_the_next_file_imported(
    name, base_file, tmp_path, capsys
):
    edit, message = HOSTILE[name]
    data = json.loads(base_file.read_text())
    edit(data)
    hostile = tmp_path / "hostile.json"
    # Python's json writes NaN, Infinity and lone surrogates as they came (as a tool might).
    text = json.dumps(data)
    for placeholder, raw in RAW.items():
        text = text.replace(json.dumps(placeholder), raw)
    hostile.write_text(text, encoding="utf-8")
    store = str(tmp_path / "runs.sqlite")

    code = main(["import", "--store", store, str(hostile), str(base_file)])

    error = capsys.readouterr().err
    assert code == 2
    assert len(error.strip().splitlines()) == 1 and message in error, error
    with ResultStore(store) as opened:
        assert [run.run_id for run in opened.runs()] == ["base"]  # the next file, only
    assert main(["runs", "--store", store]) == 0
    assert main(["report", "--store", store, "--all"]) == 0


def test_import__trials_are_bounded_by_the_files_own_simulations(base_file, tmp_path, capsys):
    data = json.loads(base_file.read_text())
    data["info"]["num_trials"] = 1_000  # allowed, but the file holds trials 0 and 1 only
    claimed = tmp_path / "claimed.json"
    claimed.write_text(json.dumps(data))
    store = str(tmp_path / "runs.sqlite")

    assert main(["import", "--store", store, str(claimed)]) == 0

    assert (
        "info.num_trials is 1000 but no simulation has a trial above 1" in capsys.readouterr().out
    )
    with ResultStore(store) as opened:
        report = run_report(opened, "claimed")
    assert report.config.trials == 2 and report.unrecorded == 0


def test_import__keys_in_the_files_settings_are_not_kept(base_file, tmp_path):
    data = json.loads(base_file.read_text())
    data["info"]["agent_info"] = {
        "implementation": "llm_agent",
        "llm": "gpt-4.1",
        "llm_args": {
            "temperature": 0.0,
            "api_key": "sk-imported-key-0001",
            "api_base": "https://someone:imported-password-02@proxy.example/v1",
            "extra_headers": {"x-api-key": "imported-header-key-03"},
        },
    }
    keyed = tmp_path / "keyed.json"
    keyed.write_text(json.dumps(data))
    store = tmp_path / "runs.sqlite"

    assert main(["import", "--store", str(store), str(keyed)]) == 0

    with sqlite3.connect(store) as db:
        dumped = "\n".join(db.iterdump())
    for secret in ("sk-imported-key-0001", "imported-password-02", "imported-header-key-03"):
        assert secret not in dumped
    assert "[REDACTED]" in dumped
