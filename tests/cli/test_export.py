"""``tau-env export --format sft / preference``: the files, the counts, and refused options."""

from __future__ import annotations

import json

import pytest

from tau_env.cli.main import main
from tau_env.rollout import create_run, run
from tau_env.store import ResultStore
from tests.rollout.conftest import mock_config


@pytest.fixture
def store_path(tmp_path):
    path = tmp_path / "runs.sqlite"
    with ResultStore(path) as store:
        for run_id, agent in (("text", "oracle-text"), ("random", "random")):
            config = mock_config(run_id, agent=agent, trials=2)
            create_run(store, config)
            run(store, config)
    return str(path)


def _lines(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_export_sft__writes_passed_episodes_of_several_runs(store_path, tmp_path, capsys):
    out = tmp_path / "corpus" / "sft.jsonl"
    argv = ["export", "--store", store_path, "--format", "sft", "--run", "text,random"]
    assert main([*argv, "--min-reward", "1", "-o", str(out)]) == 0
    lines = _lines(out)
    err = capsys.readouterr().err
    assert f"wrote {len(lines)} SFT examples from text, random to {out}" in err
    assert "left out:" in err and "(reward below 1)" in err
    assert {line["metadata"]["run_id"] for line in lines} == {"text", "random"}
    assert all(line["metadata"]["reward"] == 1.0 for line in lines)
    assert len([x for x in lines if x["metadata"]["run_id"] == "text"]) == 8  # 4 tasks x 2

    assert main([*argv, "--no-metadata", "-o", str(out)]) == 0
    assert len(_lines(out)) == 16 and all(set(x) == {"messages", "tools"} for x in _lines(out))


def test_export_preference__to_standard_output(store_path, capsys):
    assert main(["export", "--store", store_path, "--format", "preference", "--all"]) == 0
    captured = capsys.readouterr()
    pairs = [json.loads(line) for line in captured.out.splitlines()]
    assert pairs and all(
        set(p) == {"prompt", "chosen", "rejected", "tools", "metadata"} for p in pairs
    )
    assert {p["metadata"]["chosen"]["run_id"] for p in pairs} == {"text"}
    assert f"wrote {len(pairs)} preference pairs from text, random to standard output" in (
        captured.err
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--format", "preference", "--min-reward", "1"], "--min-reward is for --format sft"),
        (
            ["--format", "sft", "--pair-continuation", "turn"],
            "--pair-continuation is for --format preference",
        ),
        (["--no-metadata"], "--no-metadata is for --format sft and --format preference"),
        (["--format", "submission", "--no-metadata"], "--no-metadata is for --format sft"),
        (["--format", "sft", "--run", "text,nosuch"], "holds no run 'nosuch'"),
        (["--format", "sft", "--min-reward", "nan"], "--min-reward must be a finite number"),
    ],
)
def test_export_corpus__bad_options_write_nothing(store_path, tmp_path, capsys, argv, message):
    out = tmp_path / "sft.jsonl"
    out.write_text("old\n")
    assert main(["export", "--store", store_path, *argv, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert out.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".sft")] == []


def test_export_corpus__a_run_whose_data_is_gone_writes_nothing(store_path, tmp_path, capsys):
    with ResultStore(store_path) as store:
        config = mock_config("text", agent="oracle-text", trials=2)
        gone = config.model_copy(update={"domain": "airline", "data_dir": str(tmp_path / "gone")})
        store.update_run_config("random", gone.model_dump(mode="json"))
    argv = ["export", "--store", store_path, "--format", "sft", "--all"]
    assert main([*argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "data folder not found" in captured.err
