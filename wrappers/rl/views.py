"""Featurized views by domain: one entry point for every domain that has a featurizer.

``make_featurized_env("telecom", split="test", style="paraphrase")`` builds the single-agent
view of the domain with the scripted user in the given style (None: the style each task's
persona describes; the structured request channel is off in every style but ``structured``)
and wraps it in a `FeaturizedEnv` with the domain's featurizer. The gymnasium ids
``tau_env/<Domain>Featurized-v<N>`` (`tau_env.wrappers.registration`) call it, so
``gymnasium.make`` and ``gymnasium.make_vec`` (sync or async) work without arguments.

The view drives the AEC env directly (not through PettingZoo's order-enforcing wrapper, whose
attribute look-ups would cost more than a step): it is an internal consumer that always acts
in turn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import import_module
from typing import Any

from tau_env.wrappers.rl.featurized import FeaturizedEnv, Featurizer

__all__ = ["FEATURIZERS", "featurizer_for", "make_featurized_env", "make_telecom_featurized_env"]

FEATURIZERS: dict[str, str] = {
    "telecom": "tau_env.wrappers.rl.telecom_featurizer:TelecomFeaturizer",
    "telecom-workflow": "tau_env.wrappers.rl.telecom_featurizer:TelecomFeaturizer",
    "airline": "tau_env.wrappers.rl.airline_featurizer:AirlineFeaturizer",
    "retail": "tau_env.wrappers.rl.retail_featurizer:RetailFeaturizer",
}
"""Domain -> ``module:class`` of its featurizer (loaded on first use)."""


def featurizer_for(domain: str) -> Callable[[int, int], Featurizer]:
    """The featurizer class of a domain.

    Raises:
        ValueError: The domain has no featurizer.
    """
    target = FEATURIZERS.get(domain)
    if target is None:
        raise ValueError(f"no featurized view for domain {domain!r}; known: {sorted(FEATURIZERS)}")
    module, _, name = target.partition(":")
    return getattr(import_module(module), name)  # type: ignore[no-any-return]


def make_featurized_env(
    domain: str = "telecom",
    *,
    split: str | None = "train",
    task_ids: Sequence[str] | None = None,
    user: Any = "scripted",
    style: Any = None,
    user_seed: int = 0,
    data_dir: str | None = None,
    max_turns: int = 40,
    reveal_task: bool = False,
    **options: Any,
) -> FeaturizedEnv:
    """The featurized view of a domain with the scripted user (built-in data by default).

    Args:
        domain: A domain with a featurizer (`FEATURIZERS`).
        split: Task split (built-in telecom: ``train``, ``test``, ``test_ood``, ``base``).
        task_ids: Play only these tasks of the split.
        user: ``"scripted"`` (default) or a factory ``task -> user policy``.
        style: The scripted user's `UserStyle` or style name (None: each task's persona).
        user_seed: Seeds the scripted user's style.
        data_dir: A reference data folder (None: built-in data).
        max_turns: Templates per episode before truncation.
        reveal_task: Keep the task id in ``info`` (privileged; for logging only).
        **options: Further `TauEnv` arguments (``max_steps``, ``render_mode``: ``"ansi"`` or
            ``"human"``, see `FeaturizedEnv`).
    """
    from tau_env.loader import make_env
    from tau_env.wrappers.single_agent import SingleAgentEnv
    from tau_env.wrappers.users.scripted import ScriptedUser

    featurizer = featurizer_for(domain)
    aec = make_env(domain, data_dir=data_dir, split=split, **options).unwrapped
    if user == "scripted":
        user = ScriptedUser.factory(aec.domain, style=style, seed=user_seed)
    view = SingleAgentEnv(aec, user)
    return FeaturizedEnv(
        view, featurizer, task_ids=task_ids, max_turns=max_turns, reveal_task=reveal_task
    )


def make_telecom_featurized_env(**arguments: Any) -> FeaturizedEnv:
    """`make_featurized_env` for telecom (kept for existing callers)."""
    return make_featurized_env("telecom", **arguments)
