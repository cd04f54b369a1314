"""Participants: the policies that play the ``"agent"`` and ``"user"`` sides.

A participant is built for one episode (it may know the task: oracles do) and is asked for
one action at a time, given what its side has seen. LLM agents, scripted users and oracles all
implement this protocol; the env itself never depends on them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from tau_env.actions import Action
from tau_env.env.aec import SideContext
from tau_env.env.conversation import SideView
from tau_env.tasks.model import Task

__all__ = ["AsyncParticipant", "Participant", "ParticipantFactory"]


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
