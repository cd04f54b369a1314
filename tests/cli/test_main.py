"""Every failure of ``tau-env`` is one line on stderr and a non-zero exit, never a traceback."""

import subprocess
import sys
import textwrap

import pytest

from tau_env.cli import main as cli_main
from tau_env.cli.main import EXIT_BROKEN_PIPE, EXIT_ERROR, EXIT_INTERNAL, EXIT_INTERRUPTED, main


def one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def test_run__store_that_is_a_folder_is_one_line(tmp_path, capsys):
    # Before issue 15: a sqlite3.OperationalError traceback.
    code = main(["run", "--domain", "mock", "--tasks", "create_task", "--store", str(tmp_path)])
    assert code == EXIT_ERROR
    line = one_error_line(capsys.readouterr().err)
    assert line.startswith("tau-env: error: ") and "is a folder" in line


@pytest.mark.parametrize("command", ["report", "resume", "export"])
def test_existing_store_commands__a_folder_is_named_as_one(command, tmp_path, capsys):
    assert main([command, "--store", str(tmp_path)]) == EXIT_ERROR
    assert "is a folder" in one_error_line(capsys.readouterr().err)


@pytest.mark.parametrize("command", ["tasks", "report"])
def test_main__a_broken_pipe_ends_quietly(command, tmp_path, monkeypatch, capsys):
    # `tau-env tasks | head`, `tau-env report | head`: the reader goes away while tau-env writes.
    store = str(tmp_path / "runs.sqlite")
    argv = ["run", "--domain", "mock", "--tasks", "create_task", "--quiet", "--store", store]
    assert main(argv) == 0
    capsys.readouterr()

    class ClosedPipe:
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self):
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    argv = ["tasks", "--domain", "mock"] if command == "tasks" else ["report", "--store", store]
    assert main(argv) == EXIT_BROKEN_PIPE
    assert capsys.readouterr().err == ""


def test_console__tasks_piped_into_a_reader_that_stops_early_prints_no_traceback():
    process = subprocess.Popen(
        [sys.executable, "-m", "tau_env.cli.main", "tasks", "--domain", "telecom", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout.readline().strip() == b"["  # like `head -1`
    process.stdout.close()
    err = process.stderr.read().decode()
    process.wait(timeout=120)
    process.stderr.close()
    assert err == ""  # before issue 15: BrokenPipeError traceback(s)
    assert process.returncode == EXIT_BROKEN_PIPE


def test_console__ctrl_c_while_importing_is_one_line_and_exit_130():
    # A KeyboardInterrupt raised by the import of a module the subcommands need, as Ctrl-C
    # during the (slow) first import would.
    code = textwrap.dedent(
        """
        import sys

        class CtrlC:
            def find_spec(self, name, path=None, target=None):
                if name == "tau_env.loader":
                    raise KeyboardInterrupt
                return None

        sys.meta_path.insert(0, CtrlC())
        from tau_env.cli.main import main

        sys.exit(main(["tasks", "--domain", "mock"]))
        """
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == EXIT_INTERRUPTED
    assert one_error_line(result.stderr) == "tau-env: interrupted"


def test_cli_main__imports_no_other_tau_env_module():
    code = (
        "import sys, tau_env.cli.main; "
        "print(sorted(m for m in sys.modules if m.startswith('tau_env')))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    # `import tau_env` registers the gymnasium ids (tau_env.wrappers.registration); the CLI
    # itself adds only its own main module before a subcommand runs.
    assert result.stdout.strip() == str(
        [
            "tau_env",
            "tau_env.cli",
            "tau_env.cli.main",
            "tau_env.cli.startup",
            "tau_env.errors",
            "tau_env.lazy",
            "tau_env.registry",
            "tau_env.wrappers",
            "tau_env.wrappers.registration",
        ]
    )


def test_main__an_unexpected_error_is_one_line_naming_it(monkeypatch, capsys):
    def broken(args):
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr("tau_env.cli.tasks.handle", broken)
    monkeypatch.delenv("TAU_ENV_DEBUG", raising=False)
    assert main(["tasks", "--domain", "mock"]) == EXIT_INTERNAL
    line = one_error_line(capsys.readouterr().err)
    assert line.startswith("tau-env: internal error: unexpected RuntimeError: boom second line")
    assert "TAU_ENV_DEBUG=1" in line


def test_main__tau_env_debug_shows_the_traceback(monkeypatch):
    def broken(args):
        raise RuntimeError("boom")

    monkeypatch.setattr("tau_env.cli.tasks.handle", broken)
    monkeypatch.setenv("TAU_ENV_DEBUG", "1")
    with pytest.raises(RuntimeError, match="boom"):
        main(["tasks", "--domain", "mock"])


def test_main__every_subcommand_is_registered_in_one_place():
    parser = cli_main.build_parser()
    commands = next(a for a in parser._actions if a.dest == "command")
    # Module tau_env.cli.<name> registers the command <name> ('_' written '-' on the line).
    assert [name.replace("-", "_") for name in commands.choices] == list(cli_main.SUBCOMMANDS)


def test_ctrl_c__a_second_one_during_the_cleanup_still_gives_one_line(
    tmp_path, monkeypatch, capsys
):
    # Issue 42: one Ctrl-C printed two "interrupted" lines (1 of 5 tries). Now one place prints
    # it, and Ctrl-C is ignored while the interrupted run is counted and the line printed.
    import os
    import signal

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    def close_with_another_ctrl_c(self):
        os.kill(os.getpid(), signal.SIGINT)  # a real signal, delivered during the cleanup

    monkeypatch.setattr("tau_env.cli.execution.run", interrupted)
    monkeypatch.setattr("tau_env.rollout.progress.ProgressBar.close", close_with_another_ctrl_c)
    store = str(tmp_path / "runs.sqlite")
    argv = ["run", "--domain", "mock", "--tasks", "create_task", "--store", store, "--run", "r"]
    assert main(argv) == EXIT_INTERRUPTED
    line = one_error_line(capsys.readouterr().err)
    assert line.startswith("tau-env: interrupted; 0 of 1 episodes are stored. Continue with:")
    assert signal.getsignal(signal.SIGINT) is not signal.SIG_IGN  # restored afterwards


def test_console__two_quick_ctrl_c_during_a_run_print_one_line(tmp_path):
    import signal
    import sqlite3
    import time

    store = tmp_path / "runs.sqlite"
    argv = ["run", "--domain", "mock", "--trials", "400", "--store", str(store), "--no-progress"]
    process = subprocess.Popen(
        [sys.executable, "-m", "tau_env.cli.main", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 240
    stored = 0
    while not stored and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.2)  # until episodes are being stored: the run is under way
        try:
            db = sqlite3.connect(f"{store.as_uri()}?mode=ro", uri=True)
            stored = db.execute("SELECT COUNT(*) FROM episodes").fetchone()[0]
            db.close()
        except sqlite3.Error:
            continue
    assert stored, "the run never started storing episodes"
    process.send_signal(signal.SIGINT)
    time.sleep(0.02)
    process.send_signal(signal.SIGINT)  # a second Ctrl-C while the first is handled
    _, err = process.communicate(timeout=120)
    assert err.count("interrupted") == 1, err
    assert "episodes are stored. Continue with: tau-env resume" in err
    assert "Traceback" not in err
    # 130, or killed by the second Ctrl-C itself when it lands after the line was printed
    assert process.returncode in (EXIT_INTERRUPTED, -signal.SIGINT), err


def test_version__prints_the_package_version(capsys):
    import tau_env

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"tau-env {tau_env.__version__}\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["run", "--trials", "x"], "argument --trials/--num-trials: invalid int value: 'x'"),
        (["run", "--nonsense"], "unrecognized arguments: --nonsense"),
        (["frobnicate"], "argument command: invalid choice: 'frobnicate'"),
        ([], "the following arguments are required: command"),
    ],
)
def test_usage_errors__are_one_line_naming_the_help(argv, message, capsys):
    # Issue 55 item 7: argparse printed the usage first (4 lines, not the promised one).
    with pytest.raises(SystemExit) as usage:
        main(argv)
    assert usage.value.code == EXIT_ERROR
    captured = capsys.readouterr()
    line = one_error_line(captured.err)
    assert line.startswith(f"tau-env: error: {message}") and "--help" in line
    assert captured.out == ""


@pytest.mark.parametrize(
    "argv",
    [
        ["report"],
        ["resume"],
        ["export"],
        ["runs"],
        ["view"],
        ["import", "/nonexistent/results.json"],
        ["run", "--domain", "bank"],
        ["run", "--data-dir", "/nonexistent"],
    ],
    ids=lambda argv: " ".join(argv),
)
def test_a_refused_command__creates_no_store(argv, tmp_path, capsys):
    store = tmp_path / "tau_env_runs.sqlite"
    assert main([*argv, "--store", str(store)]) == EXIT_ERROR
    one_error_line(capsys.readouterr().err)
    assert list(tmp_path.iterdir()) == []
