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


def test_describe_failure__names_facts_said_and_transfers_not_planned():
    """Issue 53: the strict checks' constraints read as what went wrong."""
    from tau_env.cli.validate import describe_failure
    from tau_env.grading import Check, Grade, TerminationReason

    checks = {
        "DB": Check(
            component="DB",
            reward=0.0,
            details=[
                {"database": "unchanged", "met": True, "constraint": True},
                {"handover": "none", "met": False, "constraint": True, "transfers": 1},
            ],
        ),
        "COMMUNICATE": Check(
            component="COMMUNICATE",
            reward=0.0,
            details=[
                {"info": "24 hours", "met": True},
                {"forbidden": "basic economy", "met": False, "constraint": True},
            ],
        ),
    }
    grade = Grade(
        reward=0.0,
        termination=TerminationReason.USER_STOP,
        reward_basis=["DB", "COMMUNICATE"],
        breakdown={"DB": 0.0, "COMMUNICATE": 0.0},
        checks=checks,
    )
    assert describe_failure(grade) == (
        "DB (a transfer the gold plan does not make); "
        "COMMUNICATE (said 'basic economy', which it must not)"
    )
