"""Ctrl-C while the ``tau-env`` command is still importing tau_env (issue 56, item 9).

Before: a Ctrl-C in the first ~0.3 s (``import tau_env`` registers the Gymnasium ids, which
imports Gymnasium and NumPy) printed a KeyboardInterrupt traceback.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap

from tau_env.cli.main import EXIT_INTERRUPTED
from tau_env.cli.startup import quiet_start, restore_interrupts


def _console(code: str) -> subprocess.CompletedProcess[str]:
    """Run `code` as the ``tau-env`` console script would (its program name first)."""
    # As started from a terminal: Ctrl-C is Python's usual KeyboardInterrupt (a process started
    # in the background of a non-interactive shell inherits "ignore Ctrl-C" instead).
    prelude = (
        "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
        "sys.argv[0] = '/usr/local/bin/tau-env'\n"
    )
    return subprocess.run(
        [sys.executable, "-c", prelude + textwrap.dedent(code)], capture_output=True, text=True
    )


def test_console__ctrl_c_while_gymnasium_is_imported_is_one_line_and_exit_130():
    # A real SIGINT, delivered while `import tau_env` imports the Gymnasium registration.
    result = _console(
        """
        import os, signal, time

        class CtrlC:
            def find_spec(self, name, path=None, target=None):
                if name == "tau_env.wrappers.registration":
                    os.kill(os.getpid(), signal.SIGINT)
                    time.sleep(5)  # the signal is handled before this ends
                return None

        sys.meta_path.insert(0, CtrlC())
        from tau_env.cli.main import main
        sys.exit(main(["tasks", "--domain", "mock"]))
        """
    )
    assert result.returncode == EXIT_INTERRUPTED
    assert result.stderr == "tau-env: interrupted\n"


def test_console__once_main_runs_ctrl_c_is_a_keyboard_interrupt_again():
    result = _console(
        """
        import signal
        import tau_env.cli.main as cli
        cli.restore_interrupts()
        print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)
        """
    )
    assert result.stdout.strip() == "True", result.stderr


def test_quiet_start__does_nothing_in_another_program(monkeypatch):
    monkeypatch.setattr(sys, "argv", ["/usr/bin/python", "train.py"])
    before = signal.getsignal(signal.SIGINT)
    quiet_start()
    assert signal.getsignal(signal.SIGINT) is before
    restore_interrupts()  # nothing to restore: leaves the handler alone
    assert signal.getsignal(signal.SIGINT) is before
