import os

from tau_env.secrets import REDACTED, redact
from tau_env.utils.environ import environ_cached


def test_environ_cached__keeps_results_until_the_environment_changes(monkeypatch):
    calls = []

    @environ_cached
    def home_of(user):
        calls.append(user)
        return f"{os.environ.get('TAU_TEST_HOME', '/home')}/{user}"

    monkeypatch.delenv("TAU_TEST_HOME", raising=False)
    assert home_of("a") == home_of("a") == "/home/a"
    assert home_of("b") == "/home/b"
    assert calls == ["a", "b"]
    monkeypatch.setenv("TAU_TEST_HOME", "/srv")  # any change of the environment
    assert home_of("a") == "/srv/a"
    home_of.cache_clear()
    assert home_of("a") == "/srv/a"
    assert calls == ["a", "b", "a", "a"]


def test_redact__sees_a_key_set_after_earlier_redactions(monkeypatch):
    monkeypatch.delenv("TAU_TEST_API_KEY", raising=False)
    assert redact("key sk-later-123456") == "key sk-later-123456"
    monkeypatch.setenv("TAU_TEST_API_KEY", "sk-later-123456")
    assert redact("key sk-later-123456") == f"key {REDACTED}"
    monkeypatch.delenv("TAU_TEST_API_KEY")
    assert redact("key sk-later-123456") == "key sk-later-123456"
