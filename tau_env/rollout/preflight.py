"""Checking a run before anything of it is stored, and what of its configuration is stored.

`check_run` builds, once and without playing, everything the run's episodes will need: the
domain with its retrieval variant (an embedding variant checks its key), both participants (an
LLM side needs a model, its extra's packages installed, and an API key unless it talks to its
own ``api_base``, where a server must accept a connection) and the judge.
It refuses API keys given as settings (``llm_args``, retrieval options), which would be
stored with the run. A run that asks the agent's model server for exact tokens
(``--agent-tokens``) sends it one short probe request (`check_agent_tokens`): a server that
returns no token ids would leave every episode without them. Whatever is wrong is one
`TauEnvError` raised before the store is opened: a run that cannot start leaves nothing
behind, and no episode starts without every key it will need.

`stored_config` is the configuration the store keeps: secrets a URL carries (``?api_key=``,
``user:password@``) are redacted. The run itself uses the configuration it was given; a
resume gets the URL again from the command line (`restore_endpoints`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tau_env.errors import TauEnvError
from tau_env.llm.reachable import check_reachable
from tau_env.rollout.config import JudgeSpec, ParticipantSpec, RunConfig
from tau_env.rollout.modes import has_user
from tau_env.rollout.participants import build_factory, is_factory_path, model_config
from tau_env.rollout.provenance import domain_of
from tau_env.secrets import REDACTED, is_secret_name, keep_url_secrets, redact
from tau_env.utils.commands import resume_command

__all__ = [
    "TOKEN_PROBE",
    "check_agent_tokens",
    "check_judge",
    "check_run",
    "confirm_factories",
    "refuse_secret_options",
    "restore_endpoints",
    "run_resume_command",
    "stored_config",
]


TOKEN_PROBE = "Reply with the word OK."
"""The one message of the probe request `check_agent_tokens` sends."""


def _secret_setting(settings: Mapping[str, Any]) -> str | None:
    """The first setting (nested ones too, e.g. a header) whose name says it is a secret."""
    for name, value in settings.items():
        if is_secret_name(str(name)):
            return str(name)
        if isinstance(value, Mapping):
            nested = _secret_setting(value)
            if nested is not None:
                return f"{name}.{nested}"
    return None


def _refuse_secrets(config: RunConfig) -> None:
    specs: list[tuple[str, ParticipantSpec | JudgeSpec]] = [
        ("agent", config.agent),
        ("user", config.user),
    ]
    if config.judge is not None:
        specs.append(("judge", config.judge))
    for side, spec in specs:
        name = _secret_setting(spec.llm_args)
        if name is not None:
            raise TauEnvError(
                f"{side} llm_args: {name!r} would store a secret with the run; set the "
                "provider's environment variable (such as OPENAI_API_KEY) instead"
            )
    refuse_secret_options(config.retrieval_options)


def refuse_secret_options(retrieval_options: Mapping[str, Any] | None) -> None:
    """Refuse retrieval options that would store a key with the run (``embedding_api_key``).

    Raises:
        TauEnvError: Names the option and the way to give the key instead.
    """
    name = _secret_setting(retrieval_options or {})
    if name is not None:
        raise TauEnvError(
            f"--retrieval-options: {name!r} would store a secret with the run; set the "
            "provider's environment variable (such as OPENAI_API_KEY) instead"
        )


def check_run(config: RunConfig) -> None:
    """Check that the run can start: every part builds and every key it needs is set.

    Raises:
        TauEnvError: One line saying what is wrong (a `tau_env.errors.ModelAccessError` names
            the environment variable to set); nothing was written anywhere.
    """
    _refuse_secrets(config)
    _check_endpoints(config)
    domain = domain_of(config)
    with_user = has_user(config.mode)
    build_factory("agent", config.agent, domain, with_user=with_user)
    if with_user:
        build_factory("user", config.user, domain)
    check_judge(config)
    sides = [("agent", config.agent), *([("user", config.user)] if with_user else [])]
    for side, spec in sides:
        if spec.model is not None and spec.api_base is not None:
            check_reachable(spec.api_base, what=f"--{side}-api-base")
    check_agent_tokens(config)


def check_agent_tokens(config: RunConfig) -> None:
    """With ``--agent-tokens``, check with one probe request that the agent's server returns ids.

    Only some servers return each call's prompt and completion token ids (vLLM 0.10.2+ with
    ``return_token_ids``, SGLang); others answer the same request without them, and the run
    would store no tokens. The probe (`TOKEN_PROBE`, at most 8 new tokens, with the run's
    settings) costs one short call.

    Raises:
        TauEnvError: The agent is not played by a model, the probe failed, or the reply has no
            prompt or completion token ids (the message says what came back).
    """
    spec = config.agent
    if spec.llm_args.get("return_token_ids") is not True:
        return
    if not spec.model:
        raise TauEnvError(
            f"--agent-tokens: the {spec.kind} agent calls no model; use --agent llm "
            "--agent-model NAME"
        )
    from tau_env.llm import LLMClient

    probe = spec.model_copy(update={"llm_args": {**spec.llm_args, "max_tokens": 8}})
    server = redact(spec.api_base) if spec.api_base else "the provider's default endpoint"
    try:
        reply = LLMClient(model_config("agent", probe)).complete_sync(
            [{"role": "user", "content": TOKEN_PROBE}], seed=0
        )
    except TauEnvError as error:
        failed = f"--agent-tokens: the probe request to {server} failed: {error}"
        raise TauEnvError(failed) from None
    tokens = reply.tokens
    if tokens is None or not tokens.prompt_ids or not tokens.completion_ids:
        got = "logprobs only" if tokens is not None and tokens.logprobs else "no token ids"
        raise TauEnvError(
            f"--agent-tokens: {spec.model} at {server} answered a probe request with {got}: "
            "no episode would store its tokens. Serve the model with vLLM 0.10.2+ or SGLang "
            "(they return prompt_token_ids and token_ids), or run without --agent-tokens"
        )


def _check_endpoints(config: RunConfig) -> None:
    """Refuse an api base without ``http://`` or ``https://``.

    Its secrets are remembered first (`keep_url_secrets`), so the message and everything after
    it show them redacted.
    """
    endpoints = [
        (f"--{side}-api-base", getattr(config, side).api_base) for side in ("agent", "user")
    ]
    if config.judge is not None:
        endpoints.append(("--judge-api-base", config.judge.api_base))
    for flag, url in endpoints:
        keep_url_secrets(url)  # the process that writes the store redacts their echoes
        if url is None or url.lower().startswith(("http://", "https://")):
            continue
        keep_url_secrets(f"http://{url}")  # a forgotten scheme: read the rest as a URL's
        raise TauEnvError(
            f"{flag} {redact(f'http://{url}').removeprefix('http://')} has no scheme; it must "
            "start with http:// or https://"
        )


def check_judge(config: RunConfig) -> None:
    """Check that the run's judge, if it has one, builds and has the key it needs.

    Raises:
        TauEnvError: One line saying what is wrong (the variable to set, for a missing key).
    """
    if config.judge is None:
        return
    from tau_env.rollout.judging import build_judge

    try:
        judge = build_judge(config.judge)
    except ValueError as error:
        raise TauEnvError(f"--judge-model {config.judge.model}: {error}") from None
    judge.client.check_access()
    if config.judge.api_base is not None:
        check_reachable(config.judge.api_base, what="--judge-api-base")


def stored_config(config: RunConfig) -> RunConfig:
    """The configuration as the store keeps it: URL secrets and known keys redacted."""
    return RunConfig.model_validate_json(redact(config.model_dump_json()))


def confirm_factories(config: RunConfig, given: Mapping[str, str | None]) -> None:
    """Refuse to resume a run whose participant is code the store names but the user did not.

    A built-in kind (``oracle``, ``llm``, ``scripted``...) is safe to rebuild; a
    ``package.module:factory`` would be imported and called. A store is data that may come from
    someone else, so such a kind runs only when the command line names it again, exactly (as a
    redacted URL must be given again).

    Args:
        config: The stored configuration.
        given: ``--agent`` and ``--user`` of the resume, by side (None: not given).

    Raises:
        TauEnvError: A side's kind is a factory path that was not given, or another one was.
    """
    for side in ("agent", "user"):
        kind = getattr(config, side).kind
        named = given.get(side)
        if named is not None and named != kind:
            raise TauEnvError(
                f"--{side} {named} is not the {side} of run {config.run_id!r} ({kind}); a run "
                "keeps its participants"
            )
        if is_factory_path(kind) and named is None:
            raise TauEnvError(
                f"run {config.run_id!r}: its {side} is code, {kind!r}; a store never runs code "
                f"by itself: name it again with --{side} {kind} to resume"
            )


def run_resume_command(store: str, config: RunConfig) -> str:
    """The command that resumes `config`'s run, naming its participants that are code."""
    code = {
        side: kind
        for side in ("agent", "user")
        if is_factory_path(kind := getattr(config, side).kind)
    }
    return resume_command(store, config.run_id, **code)


def restore_endpoints(config: RunConfig, given: Mapping[str, str | None]) -> RunConfig:
    """A stored configuration with the participants' URLs whose secrets were redacted given back.

    Args:
        config: The stored configuration (its judge as the resume sets it).
        given: ``--agent-api-base`` and ``--user-api-base``, by side (None: not given).

    Raises:
        TauEnvError: A redacted URL was not given again, or a given one is not the run's
            (redacted, it must equal the stored one).
    """
    update: dict[str, Any] = {}
    for side in ("agent", "user"):
        spec: ParticipantSpec = getattr(config, side)
        url = given.get(side)
        if url is None:
            if REDACTED in (spec.api_base or ""):
                raise TauEnvError(
                    f"run {config.run_id!r}: its --{side}-api-base carried a secret, which the "
                    f"store keeps redacted ({spec.api_base}); give it again with "
                    f"--{side}-api-base URL"
                )
            continue
        if redact(url) != (spec.api_base or ""):
            raise TauEnvError(
                f"--{side}-api-base {redact(url)} is not the endpoint of run {config.run_id!r} "
                f"({spec.api_base or 'the provider default'}); a run keeps its endpoints"
            )
        update[side] = spec.model_copy(update={"api_base": url})
    judge = config.judge
    if judge is not None and REDACTED in (judge.api_base or ""):
        raise TauEnvError(
            f"run {config.run_id!r}: its judge's --judge-api-base carried a secret, which the "
            f"store keeps redacted ({judge.api_base}); give it again with --judge-model "
            f"{judge.model} --judge-api-base URL"
        )
    return config.model_copy(update=update) if update else config
