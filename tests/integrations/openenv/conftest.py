from __future__ import annotations

import pytest

from tests.extras import require


@pytest.fixture(scope="package")
def server():
    """``tau-env serve telecom`` with the default options, shared by the package's tests."""
    require("openenv", "openenv")
    from tau_env.testing.serving import served

    with served(["telecom"]) as url:
        yield url
