"""Keeping API keys out of what tau_env writes: stores, exports and command-line output.

Keys reach tau_env two ways: from the environment (``OPENAI_API_KEY`` and the like, read by
litellm) and in `tau_env.llm.ModelConfig.api_key`. Neither is ever recorded on purpose, but a
provider may quote the key it received in an error message ("Incorrect API key provided:
sk-..."), and error messages are stored with failed attempts. `redact` replaces every known key
in a text before it is written.

A third way is a URL: an endpoint such as ``https://proxy/v1?api_key=...`` or
``https://user:password@host/v1`` given as ``--agent-api-base``. `redact` also replaces the
password of a URL and the value of every query or fragment parameter whose name says it holds
a secret (``key``, ``token``, ``secret``, ``password``, ``sig``, ``auth``...), wherever such a
URL appears. A provider may also echo such a value back on its own (in an error message); so
every secret a setting carries (`keep_secrets`, `keep_url_secrets`: an LLM client calls them
for its key and endpoint) is remembered for the life of the process and redacted wherever it
appears, as the environment's keys are. A fourth way is a setting whose name says it is a
secret (``api_key`` in an imported file's ``llm_args``): `redact_settings` replaces its value.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from typing import Any

from tau_env.utils.environ import environ_cached

__all__ = [
    "REDACTED",
    "is_secret_name",
    "keep_secrets",
    "keep_url_secrets",
    "redact",
    "redact_settings",
    "secrets_in_environment",
    "url_secrets",
]

REDACTED = "[REDACTED]"
"""What a key is replaced with."""

_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL", re.IGNORECASE)
_MIN_LENGTH = 8  # shorter values (flags like "true") are not keys, and would redact words

_SECRET_PARAMETER = re.compile(
    r"(?i)([?&;#][\w.~-]*(?:key|token|secret|password|passwd|pwd|sig|signature|auth|credential|"
    r"session)[\w.~-]*=)([^&#;]+)"
)
"""``name=value`` of a URL query or fragment parameter whose name says it holds a secret."""

_SECRET_NAMES = frozenset(
    {
        "api_key",
        "key",
        "token",
        "secret",
        "password",
        "credentials",
        "authorization",
        "api-key",
        "x-api-key",
    }
)
_SECRET_ENDINGS = ("_api_key", "_key", "_secret", "_password", "_token", "_credentials")

_KEPT: set[str] = set()
"""Secrets the settings of this process carried (`keep_secrets`), redacted like the
environment's."""
_PASSWORD = re.compile(r"^([^/@:]*:)([^/@]+)(?=@)")
"""``user:`` and the password after it, at the start of a URL's authority."""
_URL_END = re.compile(r"[\s\"'\\<>]")


def _urls(text: str) -> list[tuple[int, int]]:
    """(start, end) of the part after ``://`` of every URL in `text`."""
    spans = []
    start = text.find("://")
    while start >= 0:
        end_match = _URL_END.search(text, start + 3)
        end = end_match.start() if end_match else len(text)
        spans.append((start + 3, end))
        start = text.find("://", end)
    return spans


def _redact_url_rest(rest: str) -> str:
    """The part of a URL after ``://`` with its password and secret query values replaced."""
    rest = _PASSWORD.sub(rf"\1{REDACTED}", rest)
    return _SECRET_PARAMETER.sub(rf"\1{REDACTED}", rest) if "=" in rest else rest


def secrets_in_environment() -> list[str]:
    """Values of environment variables whose names say they hold a secret (``*_API_KEY``...)."""
    return list(_environment_secrets())


@environ_cached
def _environment_secrets() -> tuple[str, ...]:
    """`secrets_in_environment`, longest first, scanned again only when the environment changes.

    Every stored record is redacted: a scan of the environment per record is not free.
    """
    found = {
        value
        for name, value in os.environ.items()
        if _SECRET_NAME.search(name) and len(value) >= _MIN_LENGTH and not value.isspace()
    }
    return tuple(sorted(found, key=len, reverse=True))


def redact(text: str, extra: Iterable[str | None] = ()) -> str:
    """`text` with every secret of the environment, and every `extra` one, replaced.

    Args:
        text: Any text about to be stored or shown.
        extra: Further secrets (an explicit `ModelConfig.api_key`); None and short values are
            ignored.
    """
    secrets = _environment_secrets()
    given = {s for s in extra if s and len(s) >= _MIN_LENGTH} | _KEPT
    if given:
        secrets = tuple(sorted(given.union(secrets), key=len, reverse=True))
    for secret in secrets:  # longest first: no partial leftovers
        if secret in text:
            text = text.replace(secret, REDACTED)
    if "://" in text:
        parts, done = [], 0
        for start, end in _urls(text):
            parts += [text[done:start], _redact_url_rest(text[start:end])]
            done = end
        text = "".join([*parts, text[done:]])
    return text


def url_secrets(url: str | None) -> list[str]:
    """The secrets a URL carries: its password and its secret-named query values."""
    if not url:
        return []
    found = []
    for start, end in _urls(url):
        rest = url[start:end]
        found += [match.group(2) for match in _PASSWORD.finditer(rest)]
        found += [match.group(2) for match in _SECRET_PARAMETER.finditer(rest)]
    return [value for value in found if value != REDACTED]


def keep_secrets(*values: str | None) -> None:
    """Remember secrets a setting carries: `redact` replaces them from now on, everywhere.

    None and values too short to be keys (under 8 characters) are ignored.
    """
    _KEPT.update(value for value in values if value and len(value) >= _MIN_LENGTH)


def keep_url_secrets(url: str | None) -> None:
    """Remember the secrets a URL carries (`url_secrets`), so that an echo of one is redacted."""
    keep_secrets(*url_secrets(url))


def is_secret_name(name: str) -> bool:
    """Whether a setting's name says it holds a secret (``api_key``, ``x-api-key``, ``*_token``)."""
    lowered = name.lower()
    return lowered in _SECRET_NAMES or lowered.endswith(_SECRET_ENDINGS)


def redact_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    """`settings` with every secret-named setting's value (nested too) replaced, text redacted."""
    cleaned: dict[str, Any] = {}
    for name, value in settings.items():
        if is_secret_name(str(name)):
            cleaned[name] = REDACTED
        elif isinstance(value, Mapping):
            cleaned[name] = redact_settings(value)
        elif isinstance(value, str):
            cleaned[name] = redact(value)
        else:
            cleaned[name] = value
    return cleaned
