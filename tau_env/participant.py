"""Participants: the policies that play the ``"agent"`` and ``"user"`` sides.

A participant is built for one episode (it may know the task: oracles do) and is asked for
one action at a time, given what its side has seen. LLM agents, scripted users and oracles all
implement this protocol; the env itself never depends on them.

**The seed rule.** Every participant of an episode gets the episode's seed: the seed given to
``reset``, or, when none was given, the one the env drew (`TauEnv.episode_seed`, reduced to
31 bits). The scripted user's style choices and wording and an LLM participant's request seed
all follow it, on every route (`run_episode`, the rollout runner, `SingleAgentEnv` and the chat
view built on it). `build_participant` hands it over: to a factory that takes a ``seed``
keyword (``ScriptedUser.factory()``), else through the participant's ``set_seed(seed)`` or
its ``seed`` attribute. A factory that binds a seed itself (``ScriptedUser.factory(seed=3)``)
keeps it: every episode's participant then uses that one.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, Literal, Protocol

from tau_env.actions import Action
from tau_env.env.aec import SideContext
from tau_env.env.conversation import SideView
from tau_env.tasks.model import Task

__all__ = [
    "AsyncParticipant",
    "Participant",
    "ParticipantFactory",
    "build_participant",
    "participant_seed",
    "seed_participant",
]


class Participant(Protocol):
    """Plays one side of one episode."""

    def act(self, view: SideView, context: SideContext) -> Action:
        """The side's next action.

        Args:
            view: Everything this side has seen (``view.inbox`` is what is new).
            context: The side's instructions and tool schemas.
        """
        ...


class AsyncParticipant(Protocol):
    """Plays one side of one episode with awaitable decisions (LLM-backed participants).

    Runners await `aact` when a participant has it, so many episodes can wait on model calls
    concurrently; a participant may offer both `act` and `aact`.
    """

    async def aact(self, view: SideView, context: SideContext) -> Action:
        """The side's next action (see `Participant.act`)."""
        ...


ParticipantFactory = Callable[[Task], Participant | AsyncParticipant]
"""Builds a fresh participant for an episode of a task (oracles read the task; others ignore it)."""


SEED_BITS = 0x7FFFFFFF
"""Participant seeds are 31-bit (what every model provider accepts as a request seed)."""


def participant_seed(env: Any, seed: int | None) -> int:
    """The seed an episode's participants get.

    `seed` when one was given to ``reset``, else the one the env drew for the episode (its
    ``episode_seed``, 31 bits).

    Args:
        env: The tau_env env just reset (wrapped or not).
        seed: The seed given to its ``reset``.
    """
    if seed is not None:
        return int(seed)
    return int(env.unwrapped.episode_seed) & SEED_BITS


def build_participant(
    factory: ParticipantFactory, task: Task, seed: int
) -> Participant | AsyncParticipant:
    """The participant `factory` builds for an episode of `task`, given the episode seed.

    A factory with a ``seed`` keyword of its own is called with ``seed=seed``; one that binds
    the seed (a `functools.partial` with a ``seed`` that is not None) keeps its own; any other
    is called with the task alone and its participant is seeded by `seed_participant`.
    """
    slot = _seed_slot(factory)
    if slot == "open":
        return factory(task, seed=seed)  # type: ignore[call-arg]
    participant = factory(task)
    if slot == "none":
        seed_participant(participant, seed)
    return participant


def seed_participant(participant: Participant | AsyncParticipant, seed: int) -> None:
    """Give a participant the episode seed, when it takes one.

    Through its ``set_seed`` method, else its ``seed`` attribute (as `LLMUser` has).
    """
    set_seed = getattr(participant, "set_seed", None)
    if callable(set_seed):
        set_seed(seed)
    elif hasattr(participant, "seed"):
        participant.seed = seed


SeedSlot = Literal["open", "pinned", "none"]


def _seed_slot(factory: Any) -> SeedSlot:
    """How `factory` takes a seed (worked out once per factory: factories live for a run)."""
    try:
        return _cached_slot(factory)
    except TypeError:  # an unhashable callable
        return _slot_of(factory)


@functools.lru_cache(maxsize=1024)
def _cached_slot(factory: Any) -> SeedSlot:
    return _slot_of(factory)


def _slot_of(factory: Any) -> SeedSlot:
    if isinstance(factory, functools.partial) and "seed" in factory.keywords:
        return "open" if factory.keywords["seed"] is None else "pinned"
    try:
        parameters = inspect.signature(factory).parameters
    except (TypeError, ValueError):  # a builtin without a signature
        return "none"
    parameter = parameters.get("seed")
    takes = parameter is not None and parameter.kind in (
        inspect.Parameter.POSITIONAL_OR_KEYWORD,
        inspect.Parameter.KEYWORD_ONLY,
    )
    return "open" if takes else "none"
