"""Hostile data folders on every domain's official data (issue 9, item 2).

Missing files, broken or hostile JSON and TOML (truncated, not UTF-8, nested too deep to
parse, integers too long to convert), top-level values of the wrong type, database records
with wrong values, split files naming unknown tasks: each is refused with a `DataError` that
names the file (and the field where there is one), never with a stray exception.
"""

from __future__ import annotations

import json
import re

import pytest

import tau_env
from tau_env.errors import DataError
from tests.reliability.hostile_data import (
    domain_folder,
    forget_loaded_data,
    refused,
)


def _refused(layout, folder, *fragments: str) -> str:
    return refused(tau_env.make_env, layout, folder, *fragments)


def test_missing_files__each_is_named(layout, folder):
    for name in layout.required:
        path = domain_folder(folder, layout) / name
        saved = path.read_bytes()
        path.unlink()
        _refused(layout, folder, f"{name}: file not found")
        path.write_bytes(saved)


def test_missing_folders__are_named(layout, tmp_path):
    _refused(layout, tmp_path / "nowhere", "data folder not found")
    (tmp_path / "empty" / "domains").mkdir(parents=True)
    _refused(layout, tmp_path / "empty", "domain folder not found")


def test_a_folder_where_a_file_should_be__is_named(layout, folder):
    path = domain_folder(folder, layout) / "tasks.json"
    path.unlink()
    path.mkdir()
    _refused(layout, folder, "tasks.json: cannot read")


_BROKEN_CONTENT = {
    "truncated": lambda text: text[: len(text) // 2],
    "empty": lambda text: "",
    "not utf-8": lambda text: b"\xff\xfe\x00garbage",
    "nested too deep": lambda text: "[" * 200_000 + "]" * 200_000,
    "integer too long": lambda text: "[" + "9" * 10_000 + "]",
    "nul bytes": lambda text: "\x00" * 64,
}


@pytest.mark.parametrize("kind", sorted(_BROKEN_CONTENT))
def test_broken_files__each_is_named(layout, folder, kind):
    files = [*layout.databases, "tasks.json", "split_tasks.json"]
    for name in files:
        path = domain_folder(folder, layout) / name
        saved = path.read_bytes()
        broken = _BROKEN_CONTENT[kind](saved.decode())
        if name.endswith(".toml") and kind == "nested too deep":
            broken = "x = " + broken
        if name.endswith(".toml") and kind == "integer too long":
            broken = "x = " + "9" * 10_000
        path.write_bytes(broken if isinstance(broken, bytes) else broken.encode())
        expected = "not UTF-8" if kind == "not utf-8" else "invalid " + path.suffix[1:].upper()
        if kind == "empty" and name.endswith(".toml"):  # an empty TOML file is an empty table
            expected = "the database is empty"
        _refused(layout, folder, name, expected)
        path.write_bytes(saved)


def test_wrong_top_level_types__are_named(layout, folder):
    base = domain_folder(folder, layout)
    cases = [
        ("tasks.json", "{}", "expected a list of tasks"),
        ("split_tasks.json", "[]", "expected an object"),
    ]
    cases += [(n, "[]", "expected an object") for n in layout.databases if n.endswith(".json")]
    cases += [(n, "x = 1", "field") for n in layout.databases if n.endswith(".toml")]
    for name, content, expected in cases:
        saved = (base / name).read_bytes()
        (base / name).write_text(content)
        _refused(layout, folder, name, expected)
        (base / name).write_bytes(saved)


def _corrupt_json_record(raw: dict) -> str:
    """Set the first string field of the first record of the first keyed table to an object;
    return the field's path as the loader names it."""
    for table, records in raw.items():
        if isinstance(records, dict) and records:
            key, record = next(iter(records.items()))
            if isinstance(record, dict):
                for name, value in record.items():
                    if isinstance(value, str):
                        record[name] = {"$where": "1 == 1"}
                        return f"{table}.{key}.{name}"
    raise AssertionError("no string field to corrupt")


def test_database_record_with_a_wrong_value__names_file_and_field(layout, folder):
    base = domain_folder(folder, layout)
    for name in layout.databases:
        path = base / name
        saved = path.read_text()
        if name.endswith(".json"):
            raw = json.loads(saved)
            field = _corrupt_json_record(raw)
            path.write_text(json.dumps(raw))
        else:  # TOML: turn the first quoted value into a table-less number-shaped string
            line = re.search(r'^(\w+) = "[^"]*"$', saved, re.M)
            assert line is not None
            field = line.group(1)
            path.write_text(saved.replace(line.group(0), f"{field} = [[1], {{}}]", 1))
        text = _refused(layout, folder, name, "field")
        assert field.split(".")[-1] in text, text
        path.write_text(saved)


def test_split_file_naming_an_unknown_task__is_named(layout, folder):
    path = domain_folder(folder, layout) / "split_tasks.json"
    path.write_text(json.dumps({"base": ["no-such-task"], "test": []}))
    _refused(layout, folder, "split_tasks.json", "'no-such-task'")
    path.write_text(json.dumps({"base": [["nested"]]}))
    _refused(layout, folder, "split_tasks.json", "expected an object mapping split names")


def test_unknown_split__lists_the_known_ones(layout, folder):
    forget_loaded_data()
    with pytest.raises(DataError, match=r"unknown split 'dev'; known: \['base'\]"):
        tau_env.load_tasks(layout.domain, data_dir=folder, split="dev")
