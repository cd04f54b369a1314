"""Shared pieces of the command-line tests: a process without an OpenAI key, and the one-line
error a command gives when it stops for that key before playing any task (issue 42)."""

import pytest

OPENAI_SETTINGS = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_BASE")


@pytest.fixture
def no_openai_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """Removes every OpenAI key and base URL from the environment for the test."""
    for name in OPENAI_SETTINGS:
        monkeypatch.delenv(name, raising=False)


def missing_key_error(capsys: pytest.CaptureFixture[str]) -> str:
    """The error a command printed when it stopped for a missing key: one line, nothing played."""
    captured = capsys.readouterr()
    assert captured.out == ""  # no task was played
    assert "set OPENAI_API_KEY" in captured.err and len(captured.err.splitlines()) == 1
    return captured.err
