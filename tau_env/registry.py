"""The table of registered environment ids: which domain and version, and where its code lives.

Every domain registers under ``tau/<domain>-v<version>`` with a lazy string entry point
(``"package.module:ATTRIBUTE"``), so registering imports nothing. This module imports nothing
but `tau_env.errors`: `tau_env.domain` reads the table to load a domain, and the constructors in
`tau_env.loader` (`make_env`, `make`, `load_tasks`) read it to build environments; neither is
imported from here, so the three modules form no import cycle.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tau_env.errors import UnregisteredEnv, VersionNotFound, did_you_mean

__all__ = [
    "EnvSpec",
    "canonical_domain",
    "register",
    "registered_domains",
    "registry",
    "spec_for",
]


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
        entry_point: ``"module:ATTRIBUTE"`` naming the domain's `DomainDefinition`; nothing is
            imported until the domain is first used.
        **kwargs: Default keyword arguments for `TauEnv`.
    """
    match = _ID.match(id)
    if match is None:
        raise ValueError(f"environment ids look like 'tau/<domain>-v<N>', actually: {id!r}")
    spec = EnvSpec(id, match["domain"], int(match["version"]), entry_point, dict(kwargs))
    registry[id] = spec
    return spec


def registered_domains() -> list[str]:
    """Names of every registered domain, sorted."""
    return sorted({spec.domain for spec in registry.values()})


def spec_for(name: str) -> EnvSpec:
    """The spec for a domain name (its latest version) or a versioned id.

    Raises:
        UnregisteredEnv: No domain of that name is registered (the message suggests the
            closest: a Gymnasium id's domain, a domain the name begins, a near spelling).
        VersionNotFound: The domain is registered, but not in the version the id names.
    """
    if name in registry:
        return registry[name]
    match = _ID.match(name)
    domain = match["domain"] if match else name
    versions = [spec for spec in registry.values() if spec.domain == domain]
    if not versions:
        hint = _suggestion(domain)
        raise UnregisteredEnv(
            f"unknown domain {domain!r}{f' ({hint})' if hint else ''}; "
            f"registered: {', '.join(registered_domains())}"
        )
    if match:
        have = sorted(spec.id for spec in versions)
        raise VersionNotFound(f"{name!r} is not registered; available versions: {have}")
    return max(versions, key=lambda spec: spec.version)


def canonical_domain(name: str) -> str:
    """The registered domain a name or versioned id names (``tau/airline-v0`` -> ``airline``).

    Raises:
        UnregisteredEnv: As `spec_for`.
        VersionNotFound: As `spec_for`, and for a versioned id that is not the domain's latest
            version (a domain is always played in its latest version).
    """
    spec = spec_for(name)
    latest = spec_for(spec.domain)
    if spec is not latest:
        raise VersionNotFound(
            f"{name!r} is not the latest version of {spec.domain} ({latest.id}), the one played"
        )
    return spec.domain


_GYMNASIUM_ID = re.compile(r"^tau_env/(?P<title>[A-Za-z]+?)(?:-LLMUser|Featurized)?-v\d+$")
"""The Gymnasium ids of the single-agent views (`tau_env.wrappers.registration`)."""


def _suggestion(name: str) -> str:
    """The hint for an unknown domain name (``""`` when nothing is close)."""
    known = registered_domains()
    gymnasium = _GYMNASIUM_ID.match(name)
    if gymnasium:
        domain = re.sub(r"(?<!^)(?=[A-Z])", "_", gymnasium["title"]).lower()
        if domain in known:
            return f"a Gymnasium id, of the domain {domain!r}: did you mean {domain!r}?"
    lowered = name.lower()
    begun = [domain for domain in known if len(lowered) >= 3 and domain.startswith(lowered)]
    if len(begun) == 1:
        return f"did you mean {begun[0]!r}?"
    return did_you_mean(lowered, known)


register("tau/mock-v0", "tau_env.domains.mock:DEFINITION")
register("tau/airline-v0", "tau_env.domains.airline:DEFINITION")
register("tau/telecom-v0", "tau_env.domains.telecom:DEFINITION")
register("tau/telecom-workflow-v0", "tau_env.domains.telecom:WORKFLOW_DEFINITION")
register("tau/retail-v0", "tau_env.domains.retail:DEFINITION")
register("tau/banking_knowledge-v0", "tau_env.domains.banking_knowledge:DEFINITION")
