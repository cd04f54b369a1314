"""The public constructors: `make_env`, `make` and `load_tasks`.

They look a name up in `tau_env.registry`, load the domain once per process
(`tau_env.domain.load_domain`) and build the default stack, ``OrderEnforcingWrapper(TauEnv)``;
``env.unwrapped`` is the bare `TauEnv`. PettingZoo and the env are imported on the first
`make_env`, so importing this module stays light.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tau_env.domain import load_domain
from tau_env.registry import spec_for
from tau_env.tasks.model import Task

__all__ = ["load_tasks", "make", "make_env"]


def load_tasks(
    domain: str,
    *,
    data_dir: str | Path | None = None,
    split: str | None = None,
    retrieval: str | None = None,
    retrieval_options: Mapping[str, Any] | None = None,
) -> list[Task]:
    """The tasks of a domain.

    Args:
        domain: Domain name (``"mock"``) or versioned id (``"tau/mock-v0"``).
        data_dir: A reference data folder; None uses the built-in data.
        split: A split name (None: ``base`` when defined, else every task).
        retrieval: Retrieval variant (checked here; tasks are the same in every variant).
        retrieval_options: Settings of the retrieval variant.
    """
    spec = spec_for(domain)
    loaded = load_domain(
        spec.domain, data_dir, retrieval=retrieval, retrieval_options=retrieval_options
    )
    return loaded.split(split)


def make(id: str, **options: Any) -> Any:
    """`make_env` for a versioned id (``make("tau/mock-v0")``)."""
    return make_env(id, **options)


def make_env(
    domain: str,
    task_id: str | None = None,
    *,
    data_dir: str | Path | None = None,
    split: str | None = None,
    retrieval: str | None = None,
    retrieval_options: Mapping[str, Any] | None = None,
    **options: Any,
) -> Any:
    """Build the wrapped AEC environment of a domain.

    Args:
        domain: Domain name (``"mock"``) or versioned id (``"tau/mock-v0"``).
        task_id: Play only this task; None cycles through the split's tasks on each reset
            (``reset(options={"task_id": ...})`` still picks any task).
        data_dir: A folder laid out like the reference's data (``domains/<domain>/...``);
            None uses the built-in data, which needs no download.
        split: Task split (None: ``base`` when the data defines it, else every task).
        retrieval: Retrieval variant of a domain with a knowledge base (``banking_knowledge``:
            ``"bm25"``, ``"no_knowledge"``...; None: the domain's default).
        retrieval_options: Settings of the retrieval variant (``{"top_k": 5}``...).
        **options: Keyword arguments of `TauEnv` (``judge`` for NL assertions, ``grader``,
            ``max_steps``, ``max_errors``, ``render_mode``...).

    Returns:
        ``OrderEnforcingWrapper(TauEnv)``; ``.unwrapped`` is the `TauEnv`.
    """
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    from tau_env.env.aec import TauEnv

    spec = spec_for(domain)
    loaded = load_domain(
        spec.domain, data_dir, retrieval=retrieval, retrieval_options=retrieval_options
    )
    tasks = [loaded.task(task_id)] if task_id is not None else loaded.split(split)
    kwargs = {**spec.kwargs, **options}
    return OrderEnforcingWrapper(TauEnv(loaded, tasks, **kwargs))
