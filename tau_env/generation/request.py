"""Checking a ``tau-env generate`` request before anything is drawn or written."""

from __future__ import annotations

import importlib
import importlib.util
import math
from collections.abc import Sequence

from tau_env.errors import InvalidOption, did_you_mean
from tau_env.generation.difficulty import LEVELS
from tau_env.generation.drawn import Adapter, Request

__all__ = [
    "ADAPTERS",
    "BACKENDS",
    "MAX_TASKS",
    "MAX_WORKERS",
    "NO_COMPOSITIONAL_SPLIT",
    "NO_WORLD_SPLIT",
    "adapter_for",
    "checked_request",
]

ADAPTERS = {
    "airline": "tau_env.generation.airline",
    "retail": "tau_env.generation.retail",
    "telecom": "tau_env.generation.telecom",
    "banking_knowledge": "tau_env.generation.banking",
}
"""The domains ``tau-env generate`` writes, and the module of each one's `Adapter`."""

MAX_TASKS = 100_000
"""The largest set one call writes. Memory no longer limits it beyond the world: candidates
are spooled to a file as they are drawn, and the set is written and verified a task (a chunk)
at a time, so on one fixed world the peak barely moves from N = 1,000 to 100,000
(`benchmarks/results/generate/results.md`). What grows past this size is the default world
(airline: 58,596 customers here, about 30 KB each at the peak) and the verification's time:
each chunk of 25,000 tasks parses the world again, so by default a set 10 times larger would
parse a 10 times larger world 40 times (`tau_env.generation.verify.CHUNK`)."""

BACKENDS = ("local", "ray")
"""Where the gold replays run (``--backend``)."""

MAX_WORKERS = 256
"""The most processes the gold replays are shared among."""

NO_WORLD_SPLIT = {
    "telecom": "its world is the 6 scenario customers of the built-in database, and its test "
    "split already holds customers train never has",
    "banking_knowledge": "every task writes the customers and accounts it needs, so no two "
    "tasks share a customer and every split is already on customers train never saw",
}
"""Why ``--hold-out-world`` is refused for a domain (`Adapter.world_split` is False)."""

NO_COMPOSITIONAL_SPLIT = {
    "airline": "no airline family combines two requests that other families hold separately "
    "(compensation_delayed adds a rule of its own); hold it out with --hold-out-families",
    "banking_knowledge": "its families are products, not combinations of sub-goals",
}
"""Why ``--hold-out-compositions`` is refused for a domain."""


def adapter_for(domain: str) -> Adapter:
    """The adapter of a generated domain (its generator imported now)."""
    adapter: Adapter = importlib.import_module(ADAPTERS[domain]).ADAPTER
    return adapter


def _names(kind: str, given: Sequence[str], known: Sequence[str]) -> tuple[str, ...]:
    chosen: list[str] = []
    for name in given:
        if name not in known:
            hint = did_you_mean(name, known)
            raise InvalidOption(
                f"unknown {kind} {name!r}"
                + (f"; {hint}" if hint else "")
                + f" (known: {', '.join(known)})"
            )
        if name not in chosen:
            chosen.append(name)
    if not chosen:
        raise InvalidOption(f"no {kind} named")
    return tuple(chosen)


def _weighed(given: Sequence[str]) -> tuple[list[str], tuple[float, ...] | None]:
    """``cancel=3,exchange`` -> the names and their weights (1 where not given).

    The weights are None when no family has one: each family keeps its natural share.

    Raises:
        InvalidOption: A weight that is not a positive, finite number.
    """
    names: list[str] = []
    weights: list[float] = []
    for item in given:
        name, sign, text = item.partition("=")
        names.append(name.strip())
        if not sign:
            weights.append(1.0)
            continue
        try:
            weight = float(text)
        except ValueError:
            weight = math.nan
        if not (math.isfinite(weight) and weight > 0):
            raise InvalidOption(
                f"--families: the weight of {name.strip()!r} must be a number above 0, "
                f"not {text.strip()!r}"
            )
        weights.append(weight)
    weighted = any("=" in item for item in given)
    return names, tuple(weights) if weighted else None


def checked_request(
    domain: str,
    seed: int,
    tasks: int,
    families: Sequence[str] | None = None,
    world_size: int | None = None,
    difficulty: Sequence[str] | None = None,
    audit_sample: int = 0,
    workers: int = 1,
    held_out: Sequence[str] | None = None,
    require_audit: bool = False,
    backend: str = "local",
    hold_out_world: float = 0.0,
    hold_out_compositions: bool = False,
) -> Request:
    """The request, or `InvalidOption` saying in one line what is wrong with it."""
    if domain not in ADAPTERS:
        hint = did_you_mean(domain, ADAPTERS)
        raise InvalidOption(
            f"--domain: tau-env generate writes {', '.join(ADAPTERS)}, not {domain!r}"
            + (f"; {hint}" if hint else "")
        )
    if seed < 0:
        raise InvalidOption(f"--seed must be 0 or more, not {seed}")
    if not 1 <= tasks <= MAX_TASKS:
        raise InvalidOption(f"--tasks must be between 1 and {MAX_TASKS:,}, not {tasks}")
    adapter = adapter_for(domain)
    chosen, weights = None, None
    if families is not None:
        names, weights = _weighed(families)
        chosen = _names("family", names, adapter.families)
    if weights is not None and chosen is not None:
        if len(set(names)) != len(names):
            raise InvalidOption("--families: a weighted family is named twice")
        weights = tuple(weights[names.index(name)] for name in chosen)
    if world_size is not None:
        if adapter.min_world is None:
            raise InvalidOption(
                f"--world-size: the {domain} generator's world does not grow with a size "
                "(see the generate page of the docs)"
            )
        if adapter.max_world is not None and world_size > adapter.max_world:
            raise InvalidOption(
                f"--world-size must be at most {adapter.max_world} for {domain} (its distinct "
                f"customer names), not {world_size}"
            )
        if world_size < adapter.min_world:
            raise InvalidOption(
                f"--world-size must be at least {adapter.min_world} for {domain}, not {world_size}"
            )
    levels = None if difficulty is None else _names("difficulty level", difficulty, LEVELS)
    if audit_sample < 0:
        raise InvalidOption(f"--audit-sample must be 0 or more, not {audit_sample}")
    if not 1 <= workers <= MAX_WORKERS:
        raise InvalidOption(f"--workers must be between 1 and {MAX_WORKERS}, not {workers}")
    kept = None if held_out is None else _names("family", held_out, chosen or adapter.families)
    if kept is not None and set(chosen or adapter.families) <= set(kept):
        raise InvalidOption("--hold-out-families: every family held out leaves nothing to train on")
    if backend not in BACKENDS:
        raise InvalidOption(f"--backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if backend == "ray" and importlib.util.find_spec("ray") is None:
        raise InvalidOption("--backend ray needs Ray: pip install 'tau-env[ray]'")
    if require_audit and not audit_sample:
        raise InvalidOption("--require-audit needs an audit sample (--audit-sample 1 or more)")
    _check_held_out(domain, adapter, hold_out_world, hold_out_compositions)
    if hold_out_compositions:
        _check_parts(domain, chosen or adapter.families, kept or ())
    return Request(
        domain,
        seed,
        tasks,
        chosen,
        world_size,
        levels,
        audit_sample,
        workers,
        kept,
        require_audit,
        weights,
        backend,
        hold_out_world,
        hold_out_compositions,
    )


def _check_parts(domain: str, families: Sequence[str], held_out: Sequence[str]) -> None:
    """Refuse a composed family whose parts ``train`` would not have (left or held out)."""
    composed = getattr(importlib.import_module(ADAPTERS[domain]), "COMPOSED", {})
    for family, parts in composed.items():
        missing = [p for p in parts if p not in families or p in held_out]
        if family in families and missing:
            raise InvalidOption(
                f"--hold-out-compositions: {family} combines {' and '.join(parts)}, and train "
                f"would not have {', '.join(missing)}; keep it in train"
            )


def _check_held_out(domain: str, adapter: Adapter, world: float, compositions: bool) -> None:
    """Refuse ``--hold-out-world`` and ``--hold-out-compositions`` where they mean nothing."""
    if world:
        if not adapter.world_split:
            raise InvalidOption(
                f"--hold-out-world: not offered for {domain}: {NO_WORLD_SPLIT.get(domain, '')}"
            )
        if not 0 < world < 1:
            raise InvalidOption(f"--hold-out-world must be between 0 and 1, not {world}")
    if compositions and not adapter.compositional_split:
        raise InvalidOption(
            f"--hold-out-compositions: not offered for {domain}: "
            + NO_COMPOSITIONAL_SPLIT.get(domain, "")
        )
