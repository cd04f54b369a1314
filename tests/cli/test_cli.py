import json
import subprocess
import sys

from tau_env.cli.main import main


def test_validate__official_mock_reaches_one_on_eight_of_ten(data_dir, capsys):
    code = main(["validate", "--domain", "mock", "--data-dir", str(data_dir)])
    out = capsys.readouterr().out.strip().splitlines()
    assert code == 1
    assert out[-1] == "8/10 tasks reach reward 1.0"
    failures = sorted(line.split(":")[0] for line in out[:-1])
    assert failures == [
        "FAIL update_task_with_history_and_env_assertions",
        "FAIL update_task_with_user_tools",
    ]
    assert all("ENV_ASSERTION" in line for line in out[:-1])
    assert "assert_notification_status(notification_id='notif_1'" in "\n".join(out)


def test_validate__builtin_mock_reaches_one_everywhere(capsys):
    assert main(["validate", "--domain", "mock"]) == 0
    assert capsys.readouterr().out.strip() == "10/10 tasks reach reward 1.0"


def test_run__prints_rewards_and_pass_hat_k(tmp_path, capsys):
    store = str(tmp_path / "runs.sqlite")
    assert main(["run", "--domain", "mock", "--trials", "2", "--json", "--store", store]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["episodes"] == 20 and report["average_reward"] == 1.0
    assert report["pass_hat_k"] == {"1": 1.0, "2": 1.0}
    assert all(task["rewards"] == [1.0, 1.0] for task in report["tasks"])


def test_errors__are_one_line_with_exit_code_two(tmp_path, capsys):
    assert main(["tasks", "--domain", "mock", "--data-dir", str(tmp_path)]) == 2
    assert "domain folder not found" in capsys.readouterr().err
    assert main(["tasks", "--domain", "bank"]) == 2


def test_console_script__is_installed():
    out = subprocess.run(
        [sys.executable, "-m", "tau_env.cli.main", "tasks", "--domain", "mock"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.splitlines()[0] == "create_task\tDB,COMMUNICATE"


def test_validate__strict_reading_beside_the_official_count(data_dir, capsys):
    args = ["validate", "--domain", "airline", "--data-dir", str(data_dir), "--grading", "strict"]
    assert main(args) == 0
    assert capsys.readouterr().out.strip() == (
        "50/50 tasks reach reward 1.0; strict reading: 50/50"
    )
