"""Importing an optional extra in tests: skipped locally when missing, a failure under CI=true."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
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


def verifiers_venv(*, environment: bool = False) -> Path:
    """The venv holding verifiers (``TAU_ENV_VERIFIERS_VENV``); skip, or fail under CI.

    verifiers 0.4 cannot share a venv with openenv 0.10 (its ``mcp`` pin), so it lives in a venv
    of its own, built by ``.ci/run`` from ``.ci/verifiers-requirements.txt``. With
    `environment`, that venv must also hold tau-env and ``environments/tau_env_verifiers``.
    """
    setting = os.environ.get("TAU_ENV_VERIFIERS_VENV")
    path = Path(setting or "")
    missing = None
    if not setting:
        missing = "TAU_ENV_VERIFIERS_VENV is not set (a venv with verifiers, vf-eval and uv)"
    elif not (path / "bin" / "vf-eval").exists() or not (path / "bin" / "uv").exists():
        missing = f"no verifiers venv with vf-eval and uv at TAU_ENV_VERIFIERS_VENV={path}"
    elif environment:
        probe = [str(path / "bin" / "python"), "-c", "import tau_env, tau_env_verifiers"]
        if subprocess.run(probe, capture_output=True).returncode != 0:
            missing = (
                f"the verifiers venv {path} lacks tau-env-verifiers: uv pip install "
                "-e . -e environments/tau_env_verifiers into it"
            )
    if missing is not None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{missing}: .ci/run must build it")
        pytest.skip(missing)
    return path
