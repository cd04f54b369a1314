"""Versioned environment ids and the public constructors `make_env`, `make` and `load_tasks`.

Every domain registers under ``tau/<domain>-v<version>`` with a lazy string entry point, so
importing tau_env imports no domain. `make_env` returns the default stack,
``OrderEnforcingWrapper(TauEnv)``; ``env.unwrapped`` is the bare `TauEnv`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tau_env.domain import load_domain, register_domain
from tau_env.errors import UnregisteredEnv, VersionNotFound
from tau_env.tasks.model import Task

__all__ = ["EnvSpec", "load_tasks", "make", "make_env", "register", "registry"]


@dataclass(frozen=True)
class EnvSpec:
    """A registered environment.

    Attributes:
        id: ``tau/<domain>-v<version>``.
        domain: The domain name.
        version: Bumped whenever tools, data, policy, tasks or grading change.
        entry_point: ``"module:ATTRIBUTE"`` of the domain's `DomainDefinition`.
        kwargs: Default keyword arguments for `TauEnv`.
    """

    id: str
    domain: str
    version: int
    entry_point: str
    kwargs: Mapping[str, Any] = field(default_factory=dict)


registry: dict[str, EnvSpec] = {}
"""Every registered spec, by id."""

_ID = re.compile(r"^tau/(?P<domain>[\w-]+?)-v(?P<version>\d+)$")


def register(id: str, entry_point: str, **kwargs: Any) -> EnvSpec:
    """Register a domain version under ``tau/<domain>-v<version>``.

    Args:
        id: The versioned id.
        entry_point: ``"module:ATTRIBUTE"`` naming the domain's `DomainDefinition`.
        **kwargs: Default keyword arguments for `TauEnv`.
    """
    match = _ID.match(id)
    if match is None:
        raise ValueError(f"environment ids look like 'tau/<domain>-v<N>', actually: {id!r}")
    spec = EnvSpec(id, match["domain"], int(match["version"]), entry_point, dict(kwargs))
    registry[id] = spec
    register_domain(spec.domain, entry_point)
    return spec


def _spec_for(name: str) -> EnvSpec:
    """The spec for a domain name (latest version) or a versioned id."""
    if name in registry:
        return registry[name]
    match = _ID.match(name)
    domain = match["domain"] if match else name
    versions = [spec for spec in registry.values() if spec.domain == domain]
    if not versions:
        known = sorted({spec.domain for spec in registry.values()})
        raise UnregisteredEnv(f"unknown domain {domain!r}; registered: {', '.join(known)}")
    if match:
        have = sorted(spec.id for spec in versions)
        raise VersionNotFound(f"{name!r} is not registered; available versions: {have}")
    return max(versions, key=lambda spec: spec.version)


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
    spec = _spec_for(domain)
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
        **options: Keyword arguments of `TauEnv` (``grader``, ``max_steps``, ``max_errors``,
            ``render_mode``...).

    Returns:
        ``OrderEnforcingWrapper(TauEnv)``; ``.unwrapped`` is the `TauEnv`.
    """
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    from tau_env.env.aec import TauEnv

    spec = _spec_for(domain)
    loaded = load_domain(
        spec.domain, data_dir, retrieval=retrieval, retrieval_options=retrieval_options
    )
    tasks = [loaded.task(task_id)] if task_id is not None else loaded.split(split)
    kwargs = {**spec.kwargs, **options}
    return OrderEnforcingWrapper(TauEnv(loaded, tasks, **kwargs))


register("tau/mock-v0", "tau_env.domains.mock:DEFINITION")
register("tau/airline-v0", "tau_env.domains.airline:DEFINITION")
register("tau/telecom-v0", "tau_env.domains.telecom:DEFINITION")
register("tau/telecom-workflow-v0", "tau_env.domains.telecom:WORKFLOW_DEFINITION")
register("tau/retail-v0", "tau_env.domains.retail:DEFINITION")
register("tau/banking_knowledge-v0", "tau_env.domains.banking_knowledge:DEFINITION")
