"""`make_chat_env`: a `ChatEnv` for a domain, mode, split and user, from names."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tau_env.chat.env import ChatEnv, SystemPrompt
from tau_env.grading.reward import RewardKind, check_reward
from tau_env.participant import ParticipantFactory

__all__ = ["UserSpec", "make_chat_env", "user_factory"]

UserSpec = ParticipantFactory | str
"""A user: a factory ``task -> participant``, or a name: ``"scripted"``, ``"gold"``, ``"llm"``
(needs a model) or ``"package.module:factory"`` (a user style or any custom participant)."""


def make_chat_env(
    domain: str,
    *,
    user: UserSpec = "scripted",
    mode: str = "default",
    split: str | None = None,
    data_dir: str | Path | None = None,
    user_model: str | None = None,
    user_api_base: str | None = None,
    system_prompt: SystemPrompt | None = None,
    reward: RewardKind = "binary",
    judge: Any = None,
    **options: Any,
) -> ChatEnv:
    """The chat view of a domain in a mode, its user played by the named participant.

    Args:
        domain: Domain name or versioned id (``"telecom"``, ``"tau/airline-v0"``).
        user: The user participant (see `UserSpec`); ignored in No-User modes.
        mode: ``default``, ``no-user``, ``oracle-plan`` or ``no-user-oracle-plan``.
        split: The task split drawn from when no task id is given (None: the default split).
        data_dir: A reference data folder (None: built-in data).
        user_model: Model of an ``llm`` user (litellm naming).
        user_api_base: Base URL of an OpenAI-compatible server for an ``llm`` user.
        system_prompt: Instructions -> system message (default: tau_env's LLM agent prompt).
        reward: ``"binary"``, ``"partial"`` or ``"breakdown"`` (`tau_env.grading.reward`).
        judge: Rules on NL assertions (a model name, a `tau_env.llm.ModelConfig` or an
            `LLMJudge`); without one, tasks scored by NL assertions are left out of draws
            and refused by id, never scored 0.
        **options: Further `TauEnv` arguments (``max_steps``, ``max_errors``, ``grader``).

    Raises:
        TauEnvError: Unknown mode or user kind, or no task playable in the mode.
        ValueError: Unknown reward.
    """
    from tau_env.loader import make_env
    from tau_env.rollout.modes import apply_mode, has_user

    check_reward(reward)
    if judge is not None:
        options["judge"] = judge
    env = apply_mode(make_env(domain, data_dir=data_dir, split=split, **options), mode)
    factory = None
    if has_user(mode):
        domain_model = env.unwrapped.domain
        factory = user_factory(user, domain_model, model=user_model, api_base=user_api_base)
    return ChatEnv(env, factory, system_prompt=system_prompt, reward=reward)


def user_factory(
    user: UserSpec, domain: Any, *, model: str | None = None, api_base: str | None = None
) -> ParticipantFactory:
    """The participant factory a `UserSpec` names, for episodes of `domain`.

    Raises:
        TauEnvError: Unknown kind, unimportable path, or an ``llm`` user without a model.
    """
    if callable(user):
        return user
    from tau_env.rollout.config import ParticipantSpec
    from tau_env.rollout.participants import build_factory

    spec = ParticipantSpec(kind=user, model=model, api_base=api_base)
    return build_factory("user", spec, domain)
