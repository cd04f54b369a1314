"""tau_env: τ²-bench as a dual-control reinforcement-learning environment.

Each domain is a PettingZoo AEC environment with two agents, ``"agent"`` and ``"user"``::

    import tau_env

    env = tau_env.make_env("mock")
    env.reset(seed=0)
    for side in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        ...

Importing this package registers the Gymnasium ids ``tau_env/<Domain>-v<N>`` (as Gymnasium's
third-party packages do, so ``gymnasium.make("tau_env/Mock-v0")`` works after ``import tau_env``);
the public names below resolve on first use, and ``dir(tau_env)`` lists them.
"""

from __future__ import annotations

from tau_env.cli.startup import quiet_start

quiet_start()  # the `tau-env` command only: Ctrl-C during the imports below exits quietly

from typing import TYPE_CHECKING  # noqa: E402

from tau_env.lazy import lazy_getattr  # noqa: E402

__version__ = "0.1.0"

_EXPORTS = {
    "make_env": "tau_env.loader",
    "make": "tau_env.loader",
    "load_tasks": "tau_env.loader",
    "load_domain": "tau_env.domain",
    "TauEnv": "tau_env.env.aec",
    "SendMessage": "tau_env.actions",
    "CallTool": "tau_env.actions",
    "Stop": "tau_env.actions",
    "Task": "tau_env.tasks.model",
    "TaskGrader": "tau_env.grading.grader",
    "Grade": "tau_env.grading.outcome",
    "TerminationReason": "tau_env.grading.outcome",
    "pass_hat_k": "tau_env.metrics",
}

__all__ = [
    "CallTool",
    "Grade",
    "SendMessage",
    "Stop",
    "Task",
    "TaskGrader",
    "TauEnv",
    "TerminationReason",
    "__version__",
    "load_domain",
    "load_tasks",
    "make",
    "make_env",
    "pass_hat_k",
    "register",
    "registry",
]

if TYPE_CHECKING:
    from tau_env.actions import CallTool, SendMessage, Stop
    from tau_env.domain import load_domain
    from tau_env.env.aec import TauEnv
    from tau_env.grading.grader import TaskGrader
    from tau_env.grading.outcome import Grade, TerminationReason
    from tau_env.loader import load_tasks, make, make_env
    from tau_env.metrics import pass_hat_k
    from tau_env.tasks.model import Task


__getattr__ = lazy_getattr(__name__, _EXPORTS, globals())


def __dir__() -> list[str]:
    """The public names (for tab completion), not this module's helpers."""
    return sorted(__all__)


# Last, so that the registration's own imports find this package initialised. Importing the
# module `tau_env.registry` binds that name to the module: rebind it to the table of specs.
from tau_env.registry import register, registry  # noqa: E402
from tau_env.wrappers.registration import register_gym_envs  # noqa: E402

register_gym_envs()
