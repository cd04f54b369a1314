"""Optional extras: a clear error naming the extra to install when one is missing.

Training routes and some backends need packages that a plain install leaves out (torch, TRL,
OpenEnv, SkyRL, Ray, litellm). Code that needs one calls `require_extra` first, so a missing
package is one line that names the extra and the command installing it, never a bare
``ModuleNotFoundError: No module named 'torch'``. `MissingExtra` is an ``ImportError`` (code that
treats a missing package as optional still catches it) and a `TauEnvError` (the command line
prints it as one line, exit code 2).
"""

from __future__ import annotations

import importlib.util

from tau_env.errors import TauEnvError

__all__ = ["INSTALL", "MissingExtra", "missing_extra", "require_extra"]

_TORCH = "pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu && "
INSTALL = {
    "llm": "pip install 'tau-env[llm]'",
    "rl": f"{_TORCH}pip install 'tau-env[rl]'",
    "ray": "pip install 'tau-env[ray]'",
    "trl": f"{_TORCH}pip install 'tau-env[trl]'",
    "openenv": "pip install 'tau-env[openenv]'",
    "skyrl": f"{_TORCH}pip install 'tau-env[skyrl]'",
}
"""The command that installs each extra (torch's CPU wheel first, from PyTorch's CPU index,
where the extra needs torch: on Linux, PyPI's torch wheel is a multi-GB CUDA build)."""


class MissingExtra(TauEnvError, ImportError):
    """A package of an optional extra is not installed (the message says how to install it)."""


def require_extra(extra: str, *modules: str, feature: str) -> None:
    """Raise `MissingExtra` unless every top-level module of `modules` can be imported.

    Args:
        extra: The extra that provides them (a key of `INSTALL`).
        *modules: Top-level module names (``"torch"``, ``"trl"``...).
        feature: What needs them, for the message (``"tau_env.baselines.grpo_telecom"``).

    Raises:
        MissingExtra: ``<feature> needs the <extra> extra (<module> is not installed): <command>``.
    """
    for module in modules:
        if importlib.util.find_spec(module) is None:
            raise _missing(extra, module, feature)


def missing_extra(extra: str, error: ImportError, *, feature: str) -> ImportError:
    """The error to raise for an ``ImportError`` caught around an extra's imports.

    A `MissingExtra` naming the extra when the module that failed is not installed at all;
    `error` itself otherwise (a broken installation says what is broken).
    """
    name = (error.name or "").partition(".")[0]
    if name and importlib.util.find_spec(name) is None:
        return _missing(extra, name, feature)
    return error


def _missing(extra: str, module: str, feature: str) -> MissingExtra:
    return MissingExtra(
        f"{feature} needs the {extra} extra ({module} is not installed): {INSTALL[extra]}"
    )
