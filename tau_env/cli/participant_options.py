"""The options that pick a side's participant: its kind, model and the model's settings.

``run`` takes them for both sides, ``play`` for the side the person does not play. The kind
defaults to ``llm`` when a model is named (as τ²-bench's ``--agent-llm`` implies), else to the
oracle agent and the scripted user.
"""

from __future__ import annotations

import argparse

from tau_env.cli.common import json_object
from tau_env.cli.reference_flags import kind_hint
from tau_env.errors import TauEnvError
from tau_env.llm.response import EXACT_TOKENS
from tau_env.rollout.bounds import MAX_TEMPERATURE
from tau_env.rollout.config import ParticipantSpec
from tau_env.rollout.participants import AGENT_KINDS, USER_KINDS

__all__ = ["DEFAULT_KINDS", "add_participant_arguments", "participant_spec"]

DEFAULT_KINDS = {"agent": "oracle", "user": "scripted"}
"""The kind of each side when neither a kind nor a model is given."""


def add_participant_arguments(parser: argparse.ArgumentParser, side: str) -> None:
    """``--<side>``, ``--<side>-model`` (``--<side>-llm``), its temperature, API base, settings."""
    # The kinds come from the tables that build them, so the help cannot leave one out.
    kinds = ", ".join(AGENT_KINDS if side == "agent" else USER_KINDS)
    parser.add_argument(
        f"--{side}",
        default=None,
        help=f"{kinds}, or package.module:factory (default: {DEFAULT_KINDS[side]}; llm when "
        f"--{side}-model is given)",
    )
    parser.add_argument(
        f"--{side}-model", f"--{side}-llm", default=None, help=f"model of an llm {side}"
    )
    parser.add_argument(
        f"--{side}-temperature",
        type=float,
        default=None,
        help=f"temperature of an llm {side} (default: 0.0)",
    )
    parser.add_argument(
        f"--{side}-api-base",
        default=None,
        help=f"OpenAI-compatible base URL for an llm {side} (default: the provider's)",
    )
    parser.add_argument(
        f"--{side}-llm-args",
        type=json_object,
        default=None,
        metavar="JSON",
        help=f"model settings of an llm {side} as a JSON object, e.g. "
        '\'{"temperature": 0.5, "max_tokens": 512}\'',
    )


def participant_spec(args: argparse.Namespace, side: str) -> ParticipantSpec:
    """The participant the options of `side` describe.

    ``--<side>-llm-args`` may carry the temperature (τ²-bench's habit), unless
    ``--<side>-temperature`` gives it too; ``--agent-tokens`` (``run``) adds the settings that
    ask for exact tokens.

    Raises:
        TauEnvError: A model named for a kind that plays without one; the temperature given
            twice; τ²-bench's name of a kind.
    """
    kind, model = getattr(args, side), getattr(args, f"{side}_model")
    if kind is not None and not kind.strip():
        raise TauEnvError(f"--{side} cannot be empty; name a kind or package.module:factory")
    if kind is None:
        kind = "llm" if model is not None else DEFAULT_KINDS[side]
    hint = kind_hint(side, kind)
    if hint is not None:
        raise TauEnvError(f"--{side} {hint}")
    if model is not None and kind != "llm":
        raise TauEnvError(
            f"--{side}-model {model} names the model of an llm {side}; --{side} {kind} plays "
            f"without one (drop --{side} {kind} to play it with --{side} llm)"
        )
    llm_args = dict(getattr(args, f"{side}_llm_args") or {})
    if llm_args and kind != "llm":
        raise TauEnvError(f"--{side}-llm-args are settings of an llm {side}, not of {kind}")
    temperature = getattr(args, f"{side}_temperature")
    if "temperature" in llm_args:
        if temperature is not None:
            raise TauEnvError(
                f"the {side}'s temperature is given twice: --{side}-temperature and in "
                f"--{side}-llm-args"
            )
        temperature = llm_args.pop("temperature")
        if isinstance(temperature, bool) or not isinstance(temperature, int | float):
            raise TauEnvError(
                f"--{side}-llm-args: temperature must be a number, actually: {temperature!r}"
            )
    if temperature is not None and not 0 <= temperature <= MAX_TEMPERATURE:  # NaN fails both
        raise TauEnvError(
            f"--{side}-temperature must be from 0 to {MAX_TEMPERATURE:g}, actually: {temperature}"
        )
    if side == "agent" and getattr(args, "agent_tokens", False):
        llm_args.update(EXACT_TOKENS)
    return ParticipantSpec(
        kind=kind,
        model=model,
        temperature=0.0 if temperature is None else float(temperature),
        api_base=getattr(args, f"{side}_api_base"),
        llm_args=llm_args,
    )
