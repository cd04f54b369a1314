"""Importing an optional extra in tests: skipped locally when missing, a failure under CI=true."""

from __future__ import annotations

import os
from types import ModuleType

import pytest


def require(module: str, extra: str) -> ModuleType:
    """Import `module`, or skip (fail under CI=true, where .ci/run installs every extra)."""
    try:
        return __import__(module, fromlist=["_"])
    except ImportError:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{module} is missing: CI must install the {extra} extra")
        pytest.skip(f"{module} is not installed (the {extra} extra)")
