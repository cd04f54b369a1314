"""tau_env's domains as a verifiers (v1) environment.

Install it next to verifiers and tau-env (``uv pip install -e environments/tau_env_verifiers``)
and run it by its id::

    vf-eval tau-env-verifiers --env.taskset.domain telecom --env.taskset.split test -n 5

The package exports, as verifiers expects of an environment package, its `TauTaskset` (the
tasks and the grader as rubric), its `TauEnv` (the episode loop) and its `TauHarness` (one
in-process model call per agent turn, with native tool schemas). `load_environment` builds the
environment from Python.
"""

from __future__ import annotations

from typing import Any

from tau_env_verifiers.env import TauEnv, TauEnvConfig
from tau_env_verifiers.harness import TauHarness, TauHarnessConfig
from tau_env_verifiers.taskset import TauTaskset, TauTasksetConfig

__all__ = [
    "TauEnv",
    "TauEnvConfig",
    "TauHarness",
    "TauHarnessConfig",
    "TauTaskset",
    "TauTasksetConfig",
    "load_environment",
]

ENV_ID = "tau-env-verifiers"


def load_environment(**taskset: Any) -> TauEnv:
    """The environment for the `TauTasksetConfig` fields given (``domain``, ``split``...)."""
    import verifiers.v1 as vf

    config = TauEnvConfig(taskset=TauTasksetConfig(id=ENV_ID, **taskset))
    env: TauEnv = vf.load_environment(config)
    return env
