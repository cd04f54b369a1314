from __future__ import annotations

import pytest

from tests.extras import require


@pytest.fixture(scope="package")
def server():
    """``tau-env serve --domain telecom``, default options, shared by the package's tests."""
    require("openenv", "openenv")
    from tau_env.testing.serving import served

    with served(["--domain", "telecom"]) as url:
        yield url
