from __future__ import annotations

import pytest

from tests.extras import require


@pytest.fixture(scope="package", autouse=True)
def _openenv_installed() -> None:
    """Every test here needs the openenv extra: skipped without it (a failure under CI=true).

    A fixture, not a module-level skip, so the tests are collected on every install and the
    number that need the official data is the same with or without the extras (README)."""
    require("openenv", "openenv")


@pytest.fixture(scope="package")
def server():
    """``tau-env serve --domain telecom``, default options, shared by the package's tests."""
    require("openenv", "openenv")
    from tau_env.testing.serving import served

    with served(["--domain", "telecom"]) as url:
        yield url


@pytest.fixture(scope="package")
def bank_server():
    """``tau-env serve --domain banking_knowledge`` (built-in bank, ``grep`` among its tools)."""
    require("openenv", "openenv")
    from tau_env.testing.serving import served

    with served(["--domain", "banking_knowledge"]) as url:
        yield url
