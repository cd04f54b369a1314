"""Versions and fingerprints recorded with a run, so results say what produced them."""

from __future__ import annotations

import hashlib
import json
import platform
from typing import Any

import tau_env
from tau_env.domain import Domain, default_retrieval, load_domain
from tau_env.errors import TauEnvError
from tau_env.generation.manifest import read_manifest
from tau_env.rollout.config import RunConfig
from tau_env.rollout.task_set import TaskSet, task_set_of
from tau_env.store.records import RunRecord

__all__ = [
    "data_source",
    "domain_name",
    "domain_of",
    "recorded_task_set",
    "retrieval_variant",
    "run_fingerprint",
    "run_task_set",
    "run_versions",
]


def domain_of(config: RunConfig) -> Domain:
    """The loaded domain of a run (cached per process)."""
    return load_domain(
        domain_name(config.domain),
        config.data_dir,
        retrieval=config.retrieval,
        retrieval_options=config.retrieval_options,
    )


def retrieval_variant(config: RunConfig) -> str | None:
    """The run's retrieval variant: as configured, else the domain's default.

    None for a domain without a knowledge base. Loads no data (reports call it per run).
    """
    return config.retrieval or default_retrieval(domain_name(config.domain))


def data_source(config: RunConfig) -> str:
    """What the run played: ``"built-in"``, ``"generated"`` or ``"official"``.

    ``"generated"``: a set ``tau-env generate`` wrote (its folder holds a manifest);
    ``"official"``: any other data folder.
    """
    if not config.data_dir:
        return "built-in"
    folder = domain_name(config.domain).split("-")[0]  # telecom-workflow reads domains/telecom
    return "generated" if read_manifest(config.data_dir, folder) is not None else "official"


def domain_name(name: str) -> str:
    """A registered domain name from a name or a versioned id (``tau/telecom-v1``)."""
    if name.startswith("tau/"):
        return name.removeprefix("tau/").rsplit("-v", 1)[0]
    return name


_UNSET_OPTIONAL = frozenset({"retrieval", "retrieval_options"})
"""Settings added after runs were first stored; omitted from the fingerprint while unset."""


def _unset(config: RunConfig) -> set[str]:
    return {name for name in _UNSET_OPTIONAL if getattr(config, name) is None}


def run_versions(config: RunConfig) -> dict[str, str]:
    """Package, domain, data and interpreter versions, and the identity of the task set."""
    domain = domain_of(config)
    task_set = run_task_set(config)
    versions = {
        "tau_env": tau_env.__version__,
        "env_id": domain.env_id,
        "data": domain.data.source,
        "task_set": task_set.name,
        "task_set_hash": task_set.digest,
        **({"task_set_manifest": task_set.manifest} if task_set.manifest else {}),
        "python": platform.python_version(),
    }
    for package in ("litellm", "ray"):
        version = _installed_version(package)
        if version is not None:
            versions[package] = version
    return versions


def run_task_set(config: RunConfig) -> TaskSet:
    """The task set a run plays (`tau_env.rollout.task_set`), from its domain as loaded now."""
    return task_set_of(domain_of(config), config.task_ids, config.data_dir)


def recorded_task_set(record: RunRecord) -> TaskSet | None:
    """The task set recorded when the run was created.

    Runs stored before tau_env recorded it get it computed now, from the data as it is; None
    when that data can no longer be loaded (a report never fails for want of it).
    """
    config = RunConfig.model_validate(record.config)
    name, digest = record.versions.get("task_set"), record.versions.get("task_set_hash")
    if name is not None and digest is not None:
        return TaskSet(name, digest, len(config.task_ids), record.versions.get("task_set_manifest"))
    try:
        return run_task_set(config)
    except (TauEnvError, KeyError, OSError):
        return None


def _installed_version(package: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return None


def run_fingerprint(config: RunConfig) -> str:
    """A hash of everything that decides what an episode of the run is.

    Covers the domain version, the policy, the run's tasks (full content), the participants,
    the mode and the limits; not the execution settings, nor the judge (a resume may bring the
    judge a run lacked; episodes are judged after they are played), nor the grading (how the
    grades are read, not what an episode is). Resume refuses to continue
    a run whose fingerprint changed, because old and new episodes would not be comparable.
    """
    domain = domain_of(config)
    payload: dict[str, Any] = {
        "env_id": domain.env_id,
        "policy": domain.policy,
        "tasks": [domain.task(task_id).model_dump(mode="json") for task_id in config.task_ids],
        # Settings left at their default are left out, so runs stored before the setting
        # existed keep their fingerprint (and can still be resumed).
        "config": config.model_dump(
            mode="json",
            exclude={
                "run_id",
                "judge",
                "grading",
                *_UNSET_OPTIONAL.intersection(_unset(config)),
            },
        ),
    }
    text = json.dumps(payload, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]
