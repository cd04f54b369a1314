"""Importing an optional extra in tests: skipped locally when missing, a failure under CI=true."""

from __future__ import annotations

import os
from types import ModuleType

import pytest


def require(module: str, extra: str) -> ModuleType:
    """Import `module`, or skip (fail under CI=true, where .ci/run installs every extra).

    Called at a test module's top level or inside a test: either way the skip is allowed at
    module level (in a test it skips only that test).
    """
    try:
        return __import__(module, fromlist=["_"])
    except ImportError:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{module} is missing: CI must install the {extra} extra", pytrace=False)
        pytest.skip(f"{module} is not installed (the {extra} extra)", allow_module_level=True)
