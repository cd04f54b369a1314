"""``tau-env audit``: text, JSON and HTML for built-in and official task sets."""

import json
import re

from tau_env.baselines.probes import PROBE_NAMES
from tau_env.cli.main import main
from tests.cli.conftest import missing_key_error
from tests.families import task_of


def test_audit__builtin_mock_text(capsys):
    assert main(["audit", "--domain", "mock"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("audit of mock (built-in, split default, 10 tasks)")
    assert "official grading" in lines[0]
    players = [line.split()[0] for line in lines[2 : 3 + len(PROBE_NAMES)]]
    assert players == [*PROBE_NAMES, "oracle"]  # PROBE_NAMES: tests/baselines/test_probes.py
    assert re.search(r"\noracle \(gold plan\) +1\.000 \(10/10\)\n", out)
    assert "tasks only the oracle passes" in out


def test_audit__json_agrees_with_its_task_outcomes(capsys):
    chosen = [task_of("airline", "cancel_refused").id, task_of("airline", "cancel_recent").id]
    assert main(["audit", "--domain", "airline", "--tasks", ",".join(chosen), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [t["task_id"] for t in data["tasks"]] == chosen
    for player, rate in data["official"]["rates"].items():
        passed = sum(t["passed"][player] is True for t in data["tasks"])
        assert rate["passed"] == passed
    assert data["official"]["rates"]["oracle"]["rate"] == 1.0
    assert data["official"]["only_oracle"] == chosen
    assert "strict" not in data


def test_audit__official_strict_with_html(data_dir, tmp_path, capsys):
    page = tmp_path / "audit" / "airline.html"
    code = main(
        [
            "audit", "--domain", "airline", "--data-dir", str(data_dir),
            "--grading", "strict", "--html", str(page),
        ]
    )  # fmt: skip
    assert code == 0
    captured = capsys.readouterr()
    assert "official pass rate" in captured.out and "strict pass rate" in captured.out
    assert re.search(r"^refuse +0\.\d{3} \(\d+/50\) +0\.\d{3} \(\d+/50\)$", captured.out, re.M)
    assert f"wrote {page}" in captured.err
    html = page.read_text()
    assert html.startswith("<!DOCTYPE html>") and "strict pass rate" in html
    assert "<script" not in html  # the audit page needs none


def test_audit__errors_are_one_line(capsys):
    assert main(["audit", "--domain", "airlin"]) == 2
    assert "did you mean 'airline'?" in capsys.readouterr().err
    assert main(["audit", "--domain", "airline", "--tasks", "nope"]) == 2
    assert "no task 'nope'" in capsys.readouterr().err
    assert main(["audit", "--domain", "airline", "--judge-api-base", "http://x"]) == 2
    assert "--judge-api-base needs --judge-model" in capsys.readouterr().err


def test_audit__a_judge_without_its_key__one_line_before_any_task(no_openai_key, capsys):
    # Issue 42's rule for every command: a key the judge will need is checked at the start.
    assert main(["audit", "--domain", "mock", "--judge-model", "gpt-4.1"]) == 2
    assert missing_key_error(capsys).startswith("tau-env: error: no API key for OpenAI")


def test_audit__an_embedding_variant_without_its_key__one_line_before_any_task(
    no_openai_key, capsys
):
    argv = ["audit", "--domain", "banking_knowledge", "--retrieval", "openai_embeddings"]
    assert main(argv) == 2
    missing_key_error(capsys)


def test_audit__seeds_are_listed_and_a_bad_list_is_one_line(capsys):
    assert main(["audit", "--domain", "mock", "--seeds", "0,1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seeds"] == [0, 1] and data["user"] == "scripted user (seeds 0, 1)"
    assert main(["audit", "--domain", "mock", "--seeds", "one"]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["tau-env: error: --seeds must be comma-separated integers, actually: 'one'"]


def test_audit__workers_give_the_same_json_and_a_bad_count_is_one_line(capsys):
    assert main(["audit", "--domain", "mock", "--seeds", "0,1", "--json"]) == 0
    alone = json.loads(capsys.readouterr().out)
    assert main(["audit", "--domain", "mock", "--seeds", "0,1", "--json", "--workers", "2"]) == 0
    assert json.loads(capsys.readouterr().out) == alone
    assert main(["audit", "--domain", "mock", "--workers", "0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["tau-env: error: --workers must be between 1 and 256, not 0"]
