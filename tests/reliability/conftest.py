"""Reliability-suite setup: a stable hypothesis constant pool, and the tally printed at the end.

Hypothesis mixes into its draws literal constants found in the local modules loaded so far, so
the same derandomized test could draw differently depending on which modules earlier tests
happened to import. Importing every module of the package up front makes the pool, and so each
fuzz test's examples and counts, the same whatever the test order (for one selection of tests).
"""

from __future__ import annotations

import contextlib
import importlib
import pkgutil

import pytest

from tests.reliability.hostile_data import LAYOUTS, copy_domain, forget_loaded_data
from tests.reliability.tally import lines


def _import_package() -> None:
    roots = ["tau_env", "tau_env.domains", "tau_env.wrappers", "tau_env.baselines"]
    for root in roots:  # the last three live in their own folders (setuptools package-dir)
        package = importlib.import_module(root)
        for module in pkgutil.walk_packages(package.__path__, f"{root}."):
            with contextlib.suppress(ImportError):  # optional extras (ray) not installed
                importlib.import_module(module.name)


_import_package()


@pytest.fixture(params=sorted(LAYOUTS), ids=str)
def layout(request):
    """Each official domain's folder layout (the hostile data and task file tests)."""
    return LAYOUTS[request.param]


@pytest.fixture
def folder(data_dir, layout, tmp_path):
    """A writable copy of the domain's official folder."""
    yield copy_domain(data_dir, layout, tmp_path / "data")
    forget_loaded_data()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    found = lines()
    if found:
        terminalreporter.section("reliability tally")
        for line in found:
            terminalreporter.write_line(line)
