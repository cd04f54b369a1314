"""ruff and mypy are part of the test suite, so CI fails when either complains."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
MAPPED = {"domains": "domains", "wrappers": "wrappers", "baselines": "baselines"}
ENVIRONMENT = REPO / "environments" / "tau_env_verifiers" / "tau_env_verifiers"


def _tool(name: str) -> list[str]:
    """The checker run by this interpreter (``python -m <name>``), so mypy sees the packages the
    tests run with; a command on PATH may belong to another Python without them."""
    if importlib.util.find_spec(name) is None:
        pytest.fail(f"{name} is not installed; install the test extra: pip install -e '.[test]'")
    return [sys.executable, "-m", name]


def test_ruff__lint_and_format_are_clean():
    lint = subprocess.run([*_tool("ruff"), "check", "."], cwd=REPO, capture_output=True, text=True)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    fmt = subprocess.run(
        [*_tool("ruff"), "format", "--check", "."], cwd=REPO, capture_output=True, text=True
    )
    assert fmt.returncode == 0, fmt.stdout + fmt.stderr


def link_tree(target: Path) -> Path:
    """``target/tau_env`` laid out as installed: core files plus the mapped top-level folders.

    mypy cannot follow setuptools' editable-install import hook, so it checks this tree of
    symlinks instead; paths in its messages read like repository paths under ``tau_env/``.
    """
    package = target / "tau_env"
    package.mkdir(parents=True)
    for item in (REPO / "tau_env").iterdir():
        if item.name != "__pycache__":
            (package / item.name).symlink_to(item)
    for name, folder in MAPPED.items():
        (package / name).symlink_to(REPO / folder)
    return package


def test_mypy__strict_on_the_package(tmp_path):
    link_tree(tmp_path)
    # The verifiers environment (its own distribution) is checked with the package it plays.
    (tmp_path / "tau_env_verifiers").symlink_to(ENVIRONMENT)
    result = subprocess.run(
        [
            *_tool("mypy"),
            "--config-file",
            str(REPO / "pyproject.toml"),
            "--cache-dir",
            str(tmp_path / ".mypy_cache"),
            "-p",
            "tau_env",
            "-p",
            "tau_env_verifiers",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def _test_extra_pins() -> dict[str, str]:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    pins = {}
    for requirement in config["project"]["optional-dependencies"]["test"]:
        name, _, version = requirement.partition("==")
        pins[name.strip()] = version.strip()
    return pins


@pytest.mark.parametrize("name", ["ruff", "mypy"])
def test_test_extra__pins_the_checkers_the_suite_runs(name):
    pins = _test_extra_pins()
    assert pins.get(name), f"the test extra must pin {name} with '==' (found: {pins.get(name)!r})"
    assert importlib.metadata.version(name) == pins[name], (
        f"installed {name} {importlib.metadata.version(name)} is not the pinned {pins[name]}; "
        "pip install -e '.[test]'"
    )
