"""Issue 55 item 7: the flags of ``tau2 run`` work as aliases, or are refused with one line
saying what to use; ``docs/coming-from-tau2.md`` lists every one of them."""

import json
import logging
import re
from pathlib import Path

import pytest

from tau_env.cli.main import EXIT_ERROR, build_parser, main
from tau_env.cli.reference_flags import ALIASES, NO_EQUIVALENT, REFERENCE_KINDS
from tau_env.cli.run import build_config
from tau_env.store import ResultStore

DOC = (Path(__file__).resolve().parents[2] / "docs" / "coming-from-tau2.md").read_text()


def _config(*argv):
    return build_config(build_parser().parse_args(["run", *argv]))


def test_doc__lists_every_alias_and_every_flag_without_equivalent():
    tables = DOC.split("## Flags with no equivalent")
    for flag, ours in ALIASES.items():
        assert f"`{flag}" in tables[0] and f"`{ours}" in tables[0], flag
    for flag in NO_EQUIVALENT:
        assert f"`{flag}" in tables[1], flag
    for side, kinds in REFERENCE_KINDS.items():
        for kind, ours in kinds.items():
            assert f"| `--{side} {kind}` | `{ours}` |" in DOC


@pytest.mark.parametrize("flag", list(NO_EQUIVALENT))
def test_a_flag_without_equivalent__is_one_line_saying_what_to_use(flag, tmp_path, capsys):
    store = tmp_path / "runs.sqlite"
    for argv in ([flag], [flag, "value"]):
        assert main(["run", "--domain", "mock", *argv, "--store", str(store)]) == EXIT_ERROR
        (line,) = capsys.readouterr().err.splitlines()
        assert line == (
            f"tau-env: error: {flag} is a τ²-bench flag with no equivalent here: "
            f"{NO_EQUIVALENT[flag]}"
        )
    assert not store.exists()


def test_aliases__play_the_run_the_reference_flags_describe(tmp_path, capsys):
    store = tmp_path / "runs.sqlite"
    argv = ["run", "-d", "tau/mock-v0", "--num-trials", "2", "--max-concurrency", "3"]
    argv += ["--task-ids", "create_task", "complete_task", "reopen_task", "--num-tasks", "2"]
    assert main([*argv, "--store", str(store), "--json", "--no-progress"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["domain"] == "mock" and report["trials"] == 2
    assert [task["task_id"] for task in report["tasks"]] == ["create_task", "complete_task"]
    with ResultStore(store, read_only=True) as opened:
        (run,) = opened.runs()
    assert run.domain == "mock" and run.config["domain"] == "mock"  # not "tau/mock-v0"


def test_agent_llm__names_the_model_of_an_llm_agent_and_its_settings():
    config = _config(
        "--domain",
        "mock",
        "--agent-llm",
        "openai/m",
        "--agent-llm-args",
        '{"temperature": 0.3, "max_tokens": 64}',
        "--user-llm",
        "openai/u",
        "--user-llm-args",
        '{"top_p": 0.5}',
    )
    agent, user = config.agent, config.user
    assert (agent.kind, agent.model, agent.temperature, agent.llm_args) == (
        "llm",
        "openai/m",
        0.3,
        {"max_tokens": 64},
    )
    assert (user.kind, user.model, user.temperature, user.llm_args) == (
        "llm",
        "openai/u",
        0.0,
        {"top_p": 0.5},
    )
    plain = _config("--domain", "mock")
    assert (plain.agent.kind, plain.user.kind) == ("oracle", "scripted")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--agent", "oracle", "--agent-llm", "gpt-4.1"],
            "--agent-model gpt-4.1 names the model of an llm agent; --agent oracle plays "
            "without one",
        ),
        (
            [
                "--agent-llm",
                "m",
                "--agent-temperature",
                "0.5",
                "--agent-llm-args",
                '{"temperature": 1}',
            ],
            "the agent's temperature is given twice",
        ),
        (["--user-llm-args", '{"top_p": 1}'], "--user-llm-args are settings of an llm user"),
        (["--agent", "llm_agent"], "--agent 'llm_agent' is τ²-bench's name; here: --agent llm"),
        (["--user", "user_simulator"], "'user_simulator' is τ²-bench's name; here: --user llm"),
        (["--num-tasks", "0"], "--num-tasks must be >= 1, actually: 0"),
    ],
)
def test_reference_habits__that_do_not_fit_are_one_line(argv, message, tmp_path, capsys):
    store = tmp_path / "runs.sqlite"
    assert main(["run", "--domain", "mock", *argv, "--store", str(store)]) == EXIT_ERROR
    (line,) = capsys.readouterr().err.splitlines()
    assert message in line
    assert not store.exists()


def test_agent_llm_args__must_be_a_json_object(capsys):
    with pytest.raises(SystemExit):
        main(["run", "--agent-llm-args", "[1, 2]"])
    (line,) = capsys.readouterr().err.splitlines()
    assert re.search(r"--agent-llm-args: expected a JSON object", line)


def test_log_level__sets_the_level_of_python_logging(tmp_path, capsys):
    root = logging.getLogger()
    before = root.level
    try:
        argv = ["run", "--domain", "mock", "--tasks", "create_task", "--log-level", "debug"]
        assert main([*argv, "--store", str(tmp_path / "r.sqlite"), "--quiet"]) == 0
        assert root.level == logging.DEBUG
    finally:
        root.setLevel(before)
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main(["run", "--log-level", "chatty"])
    assert "invalid choice: 'CHATTY'" in capsys.readouterr().err
