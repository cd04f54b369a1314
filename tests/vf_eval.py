"""verifiers' own ``vf-eval`` run in its venv against this process's fake model, for the tests of
the two verifiers routes (the tau-env-verifiers environment and openenv's taskset)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any


def eval_config_head(model_url: str, output: Path, concurrency: int, rollouts: int = 1) -> str:
    """The start of a ``vf-eval`` config: `rollouts` per task with the fake model at
    `model_url` (its key in ``TAU_ENV_FAKE_KEY``), traces written below `output`."""
    return f"""model = "fake"
num_rollouts = {rollouts}
max_concurrent = {concurrency}
output_dir = "{output}"
push = false
rich = "None"
[client]
base_url = "{model_url}"
api_key_var = "TAU_ENV_FAKE_KEY"
"""


def run_vf_eval(venv: Path, config: Path, output: Path, *, uv_on_path: bool = False) -> list[Any]:
    """Runs ``vf-eval @ config`` from the config's folder; returns the episodes of its traces.

    With `uv_on_path` the venv's ``bin`` (its ``uv``) comes first on ``PATH``, for runtimes that
    start players through uv.
    """
    environment = dict(os.environ, TAU_ENV_FAKE_KEY="sk-fake")
    if uv_on_path:
        environment["PATH"] = f"{venv / 'bin'}{os.pathsep}{environment['PATH']}"
    done = subprocess.run(
        [str(venv / "bin" / "vf-eval"), "@", str(config)],
        env=environment,
        cwd=config.parent,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    (traces,) = output.glob("*/traces.jsonl")
    return [json.loads(line) for line in traces.read_text().splitlines()]


def run_python(venv: Path, code: str) -> Any:
    """Runs `code` with the venv's python; returns what it printed last, read as JSON."""
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-c", code],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(done.stdout.strip().splitlines()[-1])
