"""``tau-env run``: run ids and printed commands that paste, compact output, fair modes."""

import json
import re
import shlex
from pathlib import Path

import pytest

from tau_env.cli.main import EXIT_ERROR, EXIT_INTERRUPTED, build_parser, main
from tau_env.cli.run import build_config
from tau_env.rollout.runner import create_run
from tau_env.store.sqlite import ResultStore

AWKWARD_RUN = "my run (1)"


@pytest.fixture
def awkward_store(tmp_path):
    return str(tmp_path / "runs dir (x)" / "it's a store.sqlite")


def parsed(command: str):
    """The namespace a pasted command gives (it must be one valid shell command)."""
    words = shlex.split(command)
    assert words[0] == "tau-env", command
    return build_parser().parse_args(words[1:])


def command_after(marker: str, text: str) -> str:
    """The rest of the line after `marker` (where a message ends with a command)."""
    return text.split(marker, 1)[1].splitlines()[0].strip()


@pytest.mark.parametrize(
    "argv",
    [
        ["--agent", "llm", "--agent-model", "gpt-4.1"],
        ["--agent", "llm", "--agent-model", "openai/gpt-4.1", "--user", "llm"],
        ["--agent", "tests.rollout.agents:SlowOracle"],
    ],
)
def test_build_config__a_derived_run_id_needs_no_quoting(argv):
    # Before issue 15: telecom-llm(gpt-4.1)-scripted-..., not valid shell unquoted.
    config = build_config(build_parser().parse_args(["run", "--domain", "mock", *argv]))
    assert re.fullmatch(r"[A-Za-z0-9._-]+", config.run_id), config.run_id
    assert shlex.quote(config.run_id) == config.run_id


def test_build_config__a_no_user_run_id_names_the_mode_and_no_user():
    config = build_config(build_parser().parse_args(["run", "--mode", "no-user"]))
    assert config.run_id.startswith("telecom-oracle-no-user-")


@pytest.mark.parametrize(
    ("run_id", "message"),
    [("", "cannot be empty"), ("-x", "cannot start with '-'"), ("a\nb", "control characters")],
)
def test_run__a_run_id_no_command_could_carry_is_refused(run_id, message, capsys):
    assert main(["run", "--domain", "mock", f"--run={run_id}"]) == EXIT_ERROR
    assert message in capsys.readouterr().err


def test_run__interrupted_prints_a_resume_command_that_pastes(awkward_store, monkeypatch, capsys):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("tau_env.cli.execution.run", interrupted)
    argv = ["run", "--domain", "mock", "--store", awkward_store, "--run", AWKWARD_RUN]
    assert main(argv) == EXIT_INTERRUPTED
    args = parsed(command_after("Continue with:", capsys.readouterr().err))
    assert (args.command, args.store, args.run) == ("resume", awkward_store, AWKWARD_RUN)


def test_report__of_an_incomplete_run_prints_a_resume_command_that_pastes(awkward_store, capsys):
    config = build_config(
        build_parser().parse_args(["run", "--domain", "mock", "--run", AWKWARD_RUN])
    )
    with ResultStore(awkward_store) as store:
        create_run(store, config)
    assert main(["report", "--store", awkward_store]) == EXIT_ERROR
    args = parsed(command_after("Finish it with:", capsys.readouterr().err))
    assert (args.command, args.store, args.run) == ("resume", awkward_store, AWKWARD_RUN)


def test_run__a_taken_run_id_prints_a_resume_command_that_pastes(awkward_store, capsys):
    argv = ["run", "--domain", "mock", "--tasks", "create_task", "--store", awkward_store]
    assert main([*argv, "--run", AWKWARD_RUN, "--quiet"]) == 0
    assert main([*argv, "--run", AWKWARD_RUN]) == EXIT_ERROR
    err = capsys.readouterr().err
    assert "continue it with `tau-env resume" in err
    args = parsed(err.split("`")[1])
    assert (args.store, args.run) == (awkward_store, AWKWARD_RUN)


def test_report__of_a_missing_store_prints_a_run_command_that_pastes(awkward_store, capsys):
    assert main(["report", "--store", awkward_store]) == EXIT_ERROR
    args = parsed(capsys.readouterr().err.split("`")[1])
    assert (args.command, args.store) == ("run", awkward_store)


def test_run__an_unknown_task_names_the_listing_of_the_same_data(data_dir, capsys):
    argv = ["run", "--domain", "mock", "--data-dir", str(data_dir), "--tasks", "nope"]
    assert main(argv) == EXIT_ERROR
    args = parsed(capsys.readouterr().err.split("`")[1])
    assert (args.command, args.domain, args.data_dir) == ("tasks", "mock", str(data_dir))


def test_run_help__lists_every_agent_and_user_kind(capsys):
    from tau_env.rollout.participants import AGENT_KINDS, USER_KINDS

    with pytest.raises(SystemExit):
        main(["run", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "oracle-text" in AGENT_KINDS  # before issue 15 the help left it out
    assert f"--agent AGENT {', '.join(AGENT_KINDS)}, or package.module:factory" in help_text
    assert f"--user USER {', '.join(USER_KINDS)}, or package.module:factory" in help_text


# -- output --------------------------------------------------------------------------------------


def run_mock(store, *flags):
    return main(["run", "--domain", "mock", "--trials", "2", "--store", store, *flags])


def test_run__prints_a_compact_summary_by_default(tmp_path, capsys):
    store = str(tmp_path / "runs.sqlite")
    assert run_mock(store, "--run", "compact") == 0
    lines = capsys.readouterr().out.splitlines()
    assert not any("create_task" in line for line in lines)  # no per-task table
    assert "pass^1=1.000  pass^2=1.000" in lines
    hint = command_after("per-task table:", "\n".join(lines))
    args = parsed(hint)
    assert (args.command, args.store, args.run) == ("report", store, "compact")


def test_run__verbose_adds_the_per_task_table(tmp_path, capsys):
    assert run_mock(str(tmp_path / "runs.sqlite"), "--verbose") == 0
    out = capsys.readouterr().out
    assert "  passed  pass^1    pass^2    task" in out
    assert "    2/2   1.000     1.000     create_task\n" in out


def test_run__quiet_prints_one_line(tmp_path, capsys):
    assert run_mock(str(tmp_path / "runs.sqlite"), "--quiet", "--run", "q") == 0
    captured = capsys.readouterr()
    assert captured.out == (
        "run q: pass^1=1.000  pass^2=1.000 (10 tasks x 2 trials, average reward 1.000)\n"
    )
    assert captured.err == ""


def test_run__quiet_and_verbose_exclude_each_other(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        run_mock(str(tmp_path / "runs.sqlite"), "--quiet", "--verbose")
    assert exit_info.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


# -- modes ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("domain", ["airline", "retail"])
def test_run__no_user_oracle_scores_one_on_the_tasks_the_mode_keeps(domain, tmp_path, capsys):
    # Before issue 15 the oracle scored about 0.33 here: tasks whose reward needs COMMUNICATE
    # were played though nobody can receive the information.
    store = str(tmp_path / "runs.sqlite")
    argv = ["run", "--domain", domain, "--split", "test", "--mode", "no-user", "--json"]
    assert main([*argv, "--store", store, "--no-progress"]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["pass_hat_k"] == {"1": 1.0}
    note = captured.err.strip()
    assert note.startswith("tau-env: note: mode no-user leaves out ")
    assert "the reward needs COMMUNICATE" in note


def test_run__no_user_refuses_a_named_task_whose_reward_needs_communicate(tmp_path, capsys):
    argv = ["run", "--domain", "mock", "--mode", "no-user", "--tasks", "create_task"]
    assert main([*argv, "--store", str(tmp_path / "runs.sqlite")]) == EXIT_ERROR
    err = capsys.readouterr().err
    assert "'create_task' cannot be played in mode 'no-user'" in err
    assert "the reward needs COMMUNICATE" in err


@pytest.mark.parametrize(
    "command", ["run", "tasks", "validate", "audit", "play", "import", "serve"]
)
def test_data_dir__defaults_to_tau2_data_dir_and_help_says_so(command, monkeypatch, capsys):
    # Issue 55 item 5: `TAU2_DATA_DIR=... tau-env run --domain airline` played built-in tasks.
    monkeypatch.setenv("TAU2_DATA_DIR", "/data/tau2")
    positional = ["results.json"] if command == "import" else []
    assert build_parser().parse_args([command, *positional]).data_dir == "/data/tau2"
    assert build_parser().parse_args([command, *positional, "--data-dir", "x"]).data_dir == "x"
    monkeypatch.setenv("TAU2_DATA_DIR", "")  # empty: the built-in data
    assert build_parser().parse_args([command, *positional]).data_dir is None
    with pytest.raises(SystemExit):
        main([command, "--help"])
    assert "default: $TAU2_DATA_DIR when it is set" in " ".join(capsys.readouterr().out.split())


def test_run__plays_the_official_data_tau2_data_dir_names(data_dir, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TAU2_DATA_DIR", str(data_dir))
    store = str(tmp_path / "runs.sqlite")
    argv = ["run", "--domain", "airline", "--num-tasks", "1", "--json", "--store", store]
    assert main([*argv, "--no-progress"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["data"] == "official"
    assert Path(report["data_dir"]).resolve() == Path(data_dir).resolve()
