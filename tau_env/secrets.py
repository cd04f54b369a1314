"""Keeping API keys out of what tau_env writes: stores, exports and command-line output.

Keys reach tau_env two ways: from the environment (``OPENAI_API_KEY`` and the like, read by
litellm) and in `tau_env.llm.ModelConfig.api_key`. Neither is ever recorded on purpose, but a
provider may quote the key it received in an error message ("Incorrect API key provided:
sk-..."), and error messages are stored with failed attempts. `redact` replaces every known key
in a text before it is written.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

from tau_env.utils.environ import environ_cached

__all__ = ["REDACTED", "redact", "secrets_in_environment"]

REDACTED = "[REDACTED]"
"""What a key is replaced with."""

_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL", re.IGNORECASE)
_MIN_LENGTH = 8  # shorter values (flags like "true") are not keys, and would redact words


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
    given = {s for s in extra if s and len(s) >= _MIN_LENGTH}
    if given:
        secrets = tuple(sorted(given.union(secrets), key=len, reverse=True))
    for secret in secrets:  # longest first: no partial leftovers
        if secret in text:
            text = text.replace(secret, REDACTED)
    return text
