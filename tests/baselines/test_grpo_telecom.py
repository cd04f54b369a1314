"""The GRPO telecom baseline runs as ``python -m tau_env.baselines.grpo_telecom``."""

from __future__ import annotations

import subprocess
import sys


def test_grpo_telecom__runs_as_a_module_of_the_installed_package():
    result = subprocess.run(
        [sys.executable, "-m", "tau_env.baselines.grpo_telecom", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "--model" in result.stdout and "--steps" in result.stdout


def test_grpo_telecom__import_loads_no_training_stack():
    code = (
        "import sys, tau_env.baselines.grpo_telecom\n"
        "print(sorted(m for m in ('torch', 'trl', 'transformers') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
