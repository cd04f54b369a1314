"""tau-env validate's exit codes: documented in its help, and what it returns (issue 42)."""

import pytest

from tau_env.cli.main import main
from tau_env.cli.validate import EXIT_CODES
from tests.cli.conftest import missing_key_error


def test_help__documents_every_exit_code(capsys):
    with pytest.raises(SystemExit):
        main(["validate", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert " ".join(EXIT_CODES.split()) in help_text
    for code in ("0 every task reaches reward 1.0", "; 1 a task does not", "; 2 bad input"):
        assert code in help_text


def test_exit_0__every_task_reaches_one(capsys):
    assert main(["validate", "--domain", "mock"]) == 0
    assert capsys.readouterr().out.strip() == "10/10 tasks reach reward 1.0"


def test_exit_1__official_mock_reaches_8_of_10_as_documented(data_dir, capsys):
    assert main(["validate", "--domain", "mock", "--data-dir", str(data_dir)]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1] == "8/10 tasks reach reward 1.0"
    assert sum(line.startswith("FAIL ") for line in out) == 2


def test_exit_2__bad_input(capsys):
    assert main(["validate", "--domain", "mock", "--tasks", "no_such_task"]) == 2
    assert capsys.readouterr().err.startswith("tau-env: error:")


def test_a_judge_without_its_key__one_line_before_any_task(no_openai_key, capsys):
    # Issue 42: tasks were replayed, then "not judged (the judge failed)" without the cause.
    assert main(["validate", "--domain", "mock", "--judge-model", "gpt-4.1"]) == 2
    assert missing_key_error(capsys).startswith("tau-env: error: no API key for OpenAI")
