"""Building participants from a `ParticipantSpec`, and reading back what they report.

Built-in kinds resolve to lazy ``module:attribute`` entry points (nothing heavy is imported
until used); any other kind is itself a ``module:factory`` path. Optional capabilities are
plain methods or attributes a participant may have:

* ``set_seed(seed)``: receives the episode seed before the first action;
* ``usage``: model usage over the episode (an object or mapping with ``calls``,
  ``prompt_tokens``, ``completion_tokens``, ``cost`` and optionally ``unpriced_calls``, as
  `tau_env.llm.ModelUsage`);
* ``aact(view, context)``: an awaitable decision (see `tau_env.participant.AsyncParticipant`).
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from tau_env.domain import Domain
from tau_env.errors import TauEnvError
from tau_env.messages import Side
from tau_env.participant import (
    AsyncParticipant,
    Participant,
    ParticipantFactory,
    seed_participant,
)
from tau_env.rollout.config import ParticipantSpec
from tau_env.store.records import ParticipantInfo, Usage
from tau_env.tasks.model import Task

if TYPE_CHECKING:
    from tau_env.llm import LLMClient, ModelConfig

__all__ = [
    "AGENT_KINDS",
    "ORACLE_KINDS",
    "USER_KINDS",
    "build_factory",
    "is_factory_path",
    "participant_info",
    "seed_participant",
]

Builder = Callable[[ParticipantSpec, Domain, bool], ParticipantFactory]
"""(spec, domain, whether the episode has a user side) -> participant factory."""

AGENT_KINDS: dict[str, str] = {
    "oracle": "tau_env.rollout.participants:_oracle",
    "oracle-text": "tau_env.rollout.participants:_plain_text_oracle",
    "random": "tau_env.rollout.participants:_random",
    "llm": "tau_env.rollout.participants:_llm_agent",
}
"""Built-in agent kinds -> the builder that turns a spec into a participant factory."""

ORACLE_KINDS = frozenset({"oracle", "oracle-text"})
"""Agent kinds that read the task's gold plan (their pass^k is 1.0 by construction)."""

USER_KINDS: dict[str, str] = {
    "scripted": "tau_env.rollout.participants:_scripted_user",
    "gold": "tau_env.rollout.participants:_gold_user",
    "llm": "tau_env.rollout.participants:_llm_user",
}
"""Built-in user kinds -> the builder that turns a spec into a participant factory."""


def build_factory(
    side: Side, spec: ParticipantSpec, domain: Domain, *, with_user: bool = True
) -> ParticipantFactory:
    """The participant factory a spec names, for the given side of episodes of `domain`.

    ``with_user=False`` (No-User modes) picks the built-in agents' solo variants: the oracle
    then performs every gold step itself and calls ``done``.

    Raises:
        TauEnvError: Unknown kind, unimportable path, or a spec the kind cannot use (for
            example an LLM participant without a model); nothing is built.
    """
    kinds = AGENT_KINDS if side == "agent" else USER_KINDS
    if spec.kind in kinds:
        builder: Builder = _resolve(kinds[spec.kind], f"--{side} {spec.kind}")
        return builder(spec, domain, with_user)
    if not is_factory_path(spec.kind):
        raise TauEnvError(
            f"unknown {side} {spec.kind!r}; use one of {sorted(kinds)} or 'package.module:factory'"
        )
    factory = _resolve(spec.kind, f"--{side}")
    if not callable(factory):
        raise TauEnvError(f"--{side} {spec.kind}: {type(factory).__name__} is not callable")
    result: ParticipantFactory = factory
    return result


def is_factory_path(kind: str) -> bool:
    """Whether a participant kind names code to import (``package.module:factory``)."""
    return ":" in kind


def _resolve(path: str, flag: str) -> Any:
    module_name, _, attribute = path.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise TauEnvError(f"{flag}: cannot import {module_name!r}: {error}") from None
    try:
        return getattr(module, attribute)
    except AttributeError:
        raise TauEnvError(f"{flag}: module {module_name!r} has no {attribute!r}") from None


def participant_info(
    participant: Participant | AsyncParticipant, spec: ParticipantSpec, seed: int
) -> ParticipantInfo:
    """Who played, with which model settings and route, and the usage it reports."""
    model_backed = spec.model is not None
    route = getattr(getattr(participant, "client", None), "route", None)
    return ParticipantInfo(
        implementation=spec.kind,
        model=spec.model,
        temperature=spec.temperature if model_backed else None,
        seed=seed,
        usage=usage_of(participant),
        route=route if isinstance(route, str) else None,
    )


def usage_of(participant: object) -> Usage:
    """The model usage a participant reports (zero when it reports none).

    Its ``usage``, else the usage log of the `tau_env.llm.LLMClient` it holds as ``client``.
    """
    raw = getattr(participant, "usage", None)
    if raw is None:
        log = getattr(getattr(participant, "client", None), "usage", None)
        raw = _log_total(log) if log is not None and hasattr(log, "by_model") else None
    if raw is None:
        return Usage()
    if isinstance(raw, Usage):
        return raw
    fields = ("calls", "prompt_tokens", "completion_tokens", "cost", "unpriced_calls")
    if isinstance(raw, Mapping):
        values = {name: raw.get(name) for name in fields}
    else:
        values = {name: getattr(raw, name, None) for name in fields}
    cost = values["cost"]
    unknown = cost is None or bool(values["unpriced_calls"])  # a call the provider did not price
    return Usage(
        calls=int(values["calls"] or 0),
        prompt_tokens=int(values["prompt_tokens"] or 0),
        completion_tokens=int(values["completion_tokens"] or 0),
        cost=None if unknown or cost is None else float(cost),
    )


def _log_total(log: Any) -> dict[str, Any]:
    """Totals of a `tau_env.llm.UsageLog` over its models."""
    models = log.by_model()  # copies
    if len(models) == 1:  # the usual log, of one model: its totals as they are
        return dict(vars(next(iter(models.values()))))
    total: dict[str, Any] = {}
    for usage in models.values():
        for name, value in vars(usage).items():
            total[name] = total.get(name, 0) + value
    return total


# -- built-in kinds ----------------------------------------------------------------------------


def _oracle(spec: ParticipantSpec, domain: Domain, with_user: bool) -> ParticipantFactory:
    from tau_env.baselines.oracle import OracleAgent, SoloOracleAgent

    return OracleAgent if with_user else SoloOracleAgent


def _plain_text_oracle(
    spec: ParticipantSpec, domain: Domain, with_user: bool
) -> ParticipantFactory:
    from tau_env.baselines.oracle import PlainTextOracleAgent, SoloOracleAgent

    return PlainTextOracleAgent if with_user else SoloOracleAgent


def _random(spec: ParticipantSpec, domain: Domain, with_user: bool) -> ParticipantFactory:
    from tau_env.baselines.random_agent import RandomAgent

    return RandomAgent


def _gold_user(spec: ParticipantSpec, domain: Domain, with_user: bool) -> ParticipantFactory:
    from tau_env.wrappers.users import GoldUser

    return GoldUser.factory(domain)


def _scripted_user(spec: ParticipantSpec, domain: Domain, with_user: bool) -> ParticipantFactory:
    from tau_env.wrappers.users import ScriptedUser

    return ScriptedUser.factory(domain)


def model_config(side: Side, spec: ParticipantSpec) -> ModelConfig:
    """The `ModelConfig` of a model-backed participant (API keys come from the environment).

    In the spec's ``llm_args``, ``timeout`` sets `ModelConfig.timeout` (seconds per call),
    ``route`` and ``stream`` set `ModelConfig.route` and `ModelConfig.stream`; the rest are
    request parameters.

    Raises:
        TauEnvError: The spec names no model, or a setting is invalid.
    """
    from tau_env.llm import ModelConfig

    if not spec.model:
        raise TauEnvError(f"--{side} {spec.kind} needs a model: pass --{side}-model NAME")
    params = dict(spec.llm_args)
    settings = {name: params.pop(name) for name in ("route", "stream") if name in params}
    timeout = params.pop("timeout", None)
    try:
        config = ModelConfig(
            model=spec.model,
            api_base=spec.api_base,
            temperature=spec.temperature,
            params=params,
            **settings,
        )
    except ValueError as error:
        raise TauEnvError(f"--{side}-model {spec.model}: {error}") from None
    return config if timeout is None else dataclasses.replace(config, timeout=float(timeout))


def checked_client_factory(side: Side, spec: ParticipantSpec) -> Callable[[], LLMClient]:
    """Builds one `LLMClient` per episode, after checking once that calls can succeed.

    Raises:
        ModelAccessError: No API key is set for the provider (before any episode starts).
    """
    from tau_env.llm import LLMClient

    prototype = LLMClient(model_config(side, spec))
    prototype.check_access()
    return prototype.fresh  # a new client per call, its route copied rather than derived again


def _llm_agent(spec: ParticipantSpec, domain: Domain, with_user: bool) -> ParticipantFactory:
    from tau_env.baselines.llm_agent import LLMAgent

    client = checked_client_factory("agent", spec)

    def factory(task: Task) -> LLMAgent:
        return LLMAgent(client())  # one client per episode: its usage log is the episode's

    return factory


def _llm_user(spec: ParticipantSpec, domain: Domain, with_user: bool) -> ParticipantFactory:
    from tau_env.wrappers.users import LLMUser, guidelines_for

    client = checked_client_factory("user", spec)
    guidelines = guidelines_for(domain)

    def factory(task: Task) -> LLMUser:
        return LLMUser(task, client(), guidelines=guidelines)  # usage per episode

    return factory
