"""Reading results files: what is not a τ²-bench text results file is refused, saying why."""

from __future__ import annotations

import json

import pytest

from tau_env.importing import ImportRefused, import_results, read_results_file
from tau_env.store import ResultStore
from tests.importing import reference_files as ref


def _file(tmp_path, value, name="results.json"):
    path = tmp_path / name
    path.write_text(value if isinstance(value, str) else json.dumps(value))
    return path


@pytest.fixture
def valid():
    return ref.results_file(
        "mock",
        [],
        [ref.simulation("complete_task", 0, None, termination="infrastructure_error",
                        reward_info=None)],
        trials=1,
    )  # fmt: skip


def test_read__a_valid_file(tmp_path, valid):
    results = read_results_file(_file(tmp_path, valid))
    assert results.info.environment_info.domain_name == "mock"
    assert [s.task_id for s in results.simulations] == ["complete_task"]
    assert len(results.sha256) == 64


V1 = [{"task_id": 0, "reward": 1.0, "traj": []}]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{oops", r"not JSON: Expecting property name enclosed in double quotes at line 1 col"),
        ("", r"not JSON: Expecting value at line 1 column 1"),
        (V1, r"a τ-bench \(v1\) results list, another schema"),
        ([1, 2], r"the top level is a list"),
        ("3", r"the top level is of type int"),
        (
            {"schema_version": 2, "info": {}},
            r"schema version 2: tau_env reads the results files of τ²-bench 0.2 to 1.0.1",
        ),
        (
            {"info": {}, "tasks": []},
            r"not a τ²-bench results file: field info.num_trials: Field required \(and \d+ more",
        ),
    ],
)
def test_read__what_is_not_a_results_file_is_refused(tmp_path, content, message):
    path = _file(tmp_path, content if isinstance(content, str) else json.dumps(content))
    with pytest.raises(ImportRefused, match=message) as refused:
        read_results_file(path)
    assert str(refused.value).startswith(str(path))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r["info"].update(audio_native_config={"provider": "openai"}), "voice"),
        (lambda r: r["simulations"][0].update(mode="full_duplex"), r"simulations\[0\] .*voice"),
        (lambda r: r["simulations"][0].update(termination_reason="exploded"),
         r"termination_reason 'exploded' is not one of the reference's .*another schema version"),
        (lambda r: r["simulations"][0].update(trial=1), r"trial 1 is outside info.num_trials"),
        (lambda r: r["simulations"].append(dict(r["simulations"][0], id="x")),
         r"simulations\[1\] \(task 'complete_task'\): a second simulation of trial 0"),
        (lambda r: r["simulations"][0].update(trial=None), r"field simulations\[0\].trial"),
    ],
)  # fmt: skip
def test_read__other_layouts_are_refused(tmp_path, valid, change, message):
    change(valid)
    with pytest.raises(ImportRefused, match=message):
        read_results_file(_file(tmp_path, valid))


def test_read__the_directory_format(tmp_path, valid):
    folder = tmp_path / "run"
    (folder / "simulations").mkdir(parents=True)
    simulations = valid.pop("simulations")
    (folder / "results.json").write_text(json.dumps(valid))
    (folder / "simulations" / f"{simulations[0]['id']}.json").write_text(json.dumps(simulations[0]))
    results = read_results_file(folder)
    assert [s.id for s in results.simulations] == [simulations[0]["id"]]


def test_import__a_missing_file_and_an_unknown_domain_are_refused(tmp_path, valid):
    with ResultStore(tmp_path / "s.sqlite") as store:
        with pytest.raises(ImportRefused, match="cannot read it"):
            import_results(store, str(tmp_path / "absent.json"))
        valid["info"]["environment_info"]["domain_name"] = "bakery"
        with pytest.raises(ImportRefused, match="domain 'bakery' is not a tau_env domain"):
            import_results(store, str(_file(tmp_path, valid)))
        assert store.runs() == []
