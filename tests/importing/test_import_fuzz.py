"""Fuzzing `tau-env import` (issue 56): whatever a results file holds, the command imports it or
refuses it whole in one line (exit 2), never fails inside (exit 3), and the store stays
readable by every command after it.

Seeded and small here (`tests.fuzzing`); `benchmarks/fuzz_hostile.py` runs it with many more.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tau_env.cli.main import main
from tests.fuzzing import fuzz_settings

HOSTILE_LEAVES = st.one_of(
    st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "9" * 30, str(2**63), '"\\ud800"']),
    st.sampled_from(["[" * 200 + "]" * 200, '"' + "x" * 100_000 + '"', "null", "true", "{}"]),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.text(max_size=20).map(json.dumps),
)
"""JSON text to put in place of one value of a valid file."""


@pytest.fixture(scope="module")
def base_text(tmp_path_factory) -> str:
    folder = tmp_path_factory.mktemp("fuzz")
    store = str(folder / "runs.sqlite")
    assert main(["run", "--domain", "mock", "--store", store, "--run", "b", "--tasks",
                 "create_task,delete_refused", "--quiet"]) == 0  # fmt: skip
    out = folder / "base.json"
    assert main(["export", "--store", store, "--run", "b", "--out", str(out)]) == 0
    return out.read_text()


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in `value` that holds a scalar."""
    if isinstance(value, dict):
        return [p for key, item in value.items() for p in _paths(item, (*prefix, key))]
    if isinstance(value, list):
        return [p for index, item in enumerate(value) for p in _paths(item, (*prefix, index))]
    return [prefix]


def fuzz_import(base_text: str, folder: Path, choice: int, leaf: str) -> None:
    """Replace the `choice`-th scalar of the base file with `leaf`; check the import's outcome."""
    data = json.loads(base_text)
    paths = _paths(data)
    *parents, last = paths[choice % len(paths)]
    node = data
    for part in parents:
        node = node[part]
    node[last] = "__FUZZ__"
    (folder / "fuzzed.json").write_text(json.dumps(data).replace('"__FUZZ__"', leaf))
    store = str(folder / "runs.sqlite")
    code = main(["import", "--store", store, "--json", str(folder / "fuzzed.json")])
    assert code in (0, 2), leaf
    if code == 2:  # refused whole: nothing written, not even a store
        assert not (folder / "runs.sqlite").exists()
        return
    for argv in (["runs"], ["report", "--all"], ["report", "--all", "--json"]):
        assert main([*argv, "--store", store]) in (0, 1)


@fuzz_settings(25)
@given(choice=st.integers(min_value=0, max_value=10_000), leaf=HOSTILE_LEAVES)
def test_import__any_file_is_imported_or_refused_in_one_line(
    base_text, tmp_path_factory, choice, leaf, capsys
):
    folder = tmp_path_factory.mktemp("case")
    fuzz_import(base_text, folder, choice, leaf)
    error = capsys.readouterr().err
    assert "internal error" not in error and "Traceback" not in error
