import io

from tau_env.rollout.progress import ProgressBar
from tau_env.store import FailureRecord
from tests.rollout.test_report import _episode


def _failure():
    return FailureRecord(
        run_id="r", task_id="t", trial=0, seed=0, kind="crash", error="E", at=0.0, duration=0.0
    )


def test_progress__counts_passes_and_failures_on_one_line():
    stream = io.StringIO()
    bar = ProgressBar(stream, enabled=True)
    bar.start(4, already_done=2)
    bar.update(_episode("a", 0, 1.0))
    bar.update(_episode("b", 0, 0.0))
    bar.update(_failure())
    line = bar.line()
    assert "3/4" in line and "1 passed, 1 failed attempts" in line
    bar.close()
    text = stream.getvalue()
    assert text.startswith("resuming: 2 episodes already in the store\n")
    assert text.endswith("\n") and "\r" in text


def test_progress__is_silent_when_not_a_terminal():
    stream = io.StringIO()  # isatty() is False
    bar = ProgressBar(stream)
    bar.start(2, already_done=0)
    bar.update(_episode("a", 0, 1.0))
    bar.close()
    assert stream.getvalue() == ""
