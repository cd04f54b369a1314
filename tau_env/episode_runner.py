"""Playing one episode with two participants through the standard AEC loop."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from tau_env.env.aec import TauEnv
from tau_env.grading.outcome import Grade
from tau_env.messages import Message, Side
from tau_env.participant import SEED_BITS, ParticipantFactory, build_participant

__all__ = ["EpisodeResult", "live_turns", "run_episode"]


@dataclass(frozen=True)
class EpisodeResult:
    """What one finished episode produced.

    Attributes:
        task_id: The task played.
        seed: The seed passed to ``reset``.
        reward: The terminal reward (the grade's reward; None while NL assertions wait for a
            judge).
        grade: The full grade.
        trajectory: Every message of both sides.
        steps: Steps counted as the reference counts them.
    """

    task_id: str
    seed: int | None
    reward: float | None
    grade: Grade
    trajectory: list[Message]
    steps: int

    @classmethod
    def of(
        cls,
        task_id: str,
        seed: int | None,
        grade: Grade,
        trajectory: list[Message],
        steps: int,
    ) -> EpisodeResult:
        """The result of an episode graded `grade` (`reward` is the grade's)."""
        return cls(task_id, seed, grade.reward, grade, trajectory, steps)


def bare_env(env: Any) -> Any | None:
    """The `TauEnv` to drive directly, or None when a wrapper changes what a step does.

    PettingZoo's `OrderEnforcingWrapper` (what `make_env` returns) only checks that reset
    came first, and reset goes through it; every other wrapper (the modes) may change what a
    side sees or does, so it is driven as given. Driving the bare env saves an attribute
    look-up through the wrapper chain for each of the ~10 accesses per step.
    """
    if isinstance(env, TauEnv):
        return env
    if type(env) is OrderEnforcingWrapper and isinstance(env.env, TauEnv):
        return env.env
    return None


def live_turns(env: Any) -> Iterator[Side]:
    """The sides whose turn it is, one per step, until the episode ends.

    Sides that have finished are stepped with ``None`` on the way (PettingZoo's dead steps), so
    a loop over this generator only has to pick and apply each live side's action.
    """
    bare = bare_env(env)
    if bare is None:
        for side in env.agent_iter():
            _, _, terminated, truncated, _ = env.last(observe=False)
            if terminated or truncated:
                env.step(None)
                continue
            yield side
        return
    # The same loop on the bare env: `agent_iter` and `last` read these attributes. Once
    # every side is done, their dead steps are taken at once (`TauEnv.step_dead_sides`).
    while bare.agents:
        side = bare.agent_selection
        if bare.terminations[side] or bare.truncations[side]:
            if not bare.step_dead_sides():
                bare.step(None)
            continue
        yield side


def run_episode(
    env: Any,
    agent: ParticipantFactory,
    user: ParticipantFactory | None,
    *,
    task_id: str | None = None,
    seed: int | None = None,
) -> EpisodeResult:
    """Reset `env` and let the two participants play until the episode ends.

    Args:
        env: A tau_env AEC environment (wrapped or not).
        agent: Builds the agent-side participant for the episode's task.
        user: Builds the user-side participant for the episode's task (None when the env has
            no user side, as under the No-User wrapper).
        task_id: The task to play (None: the env's next task).
        seed: Seed for ``reset``; the participants get it too (None: the one the env drew),
            see `tau_env.participant`.
    """
    bare = bare_env(env)
    raw = env.unwrapped if bare is None else bare  # (the wrappers' `unwrapped` is two calls)
    options = {"task_id": task_id} if task_id is not None else None
    if bare is not None and bare is not env:
        # `OrderEnforcingWrapper.reset`, spelled out: it notes that a reset came (and counts
        # as an update for `agent_iter`), then resets the env; two frames and the wrapper's
        # attribute hook fewer per episode. (Its own loop iterator writes these attributes
        # too; a test checks that the wrapper is left as its own reset leaves it.)
        env._has_reset = env._has_updated = True
        bare.reset(seed, options)
    else:
        env.reset(seed=seed, options=options)
    task = raw.task
    seed_of_players = seed if seed is not None else raw.episode_seed & SEED_BITS
    players = {"agent": build_participant(agent, task, seed_of_players)}
    if user is not None:
        players["user"] = build_participant(user, task, seed_of_players)
    # On a bare env whose views and contexts are `TauEnv`'s (one object per side and episode),
    # they are looked up once per episode; a subclass that redefines them is asked every step,
    # as a wrapper is.
    if bare is not None and type(bare).view is TauEnv.view and type(bare).context is TauEnv.context:
        _play_bare(bare, players)
    else:
        # Through the wrappers when there are modes: a mode may change what a side sees and
        # which tools it has. Methods are looked up once per episode, not once per step.
        driven = env if bare is None else bare
        view, context, step = driven.view, driven.context, driven.step
        acts: dict[Side, Any] = {}
        for side in live_turns(env):
            act = acts.get(side)
            if act is None:
                act = acts[side] = _act_of(players, side)
            step(act(view(side), context(side)))
    grade = raw.grade
    assert grade is not None, "an ended episode always has a grade"
    conversation = raw.conversation
    trajectory = list(conversation.trajectory)
    return EpisodeResult.of(task.id, seed, grade, trajectory, conversation.step_count)


def _act_of(players: dict[str, Any], side: Side) -> Any:
    """The ``act`` method of the participant playing `side` (raises if there is none)."""
    player = players.get(side)
    if player is None:
        raise ValueError(f"no participant was given for the {side} side")
    act = getattr(player, "act", None)
    if act is None:
        raise TypeError(f"{type(player).__name__} has no act(); use an async runner")
    return act


def _play_bare(env: TauEnv, players: dict[str, Any]) -> None:
    """`run_episode`'s loop on a bare `TauEnv` (the loop of `live_turns`, inlined).

    A side's view and context are the same objects for a whole episode, so each side's
    participant method, view and context are looked up once, when it first acts.
    """
    step = env.step
    sides: dict[Side, tuple[Any, Any, Any]] = {}
    while env.agents:
        side = env.agent_selection
        if env.terminations[side] or env.truncations[side]:
            # The usual end: every side's dead step at once.
            if not env.step_dead_sides():
                step(None)
            continue
        seat = sides.get(side)
        if seat is None:
            seat = sides[side] = (_act_of(players, side), env.view(side), env.context(side))
        act, view, context = seat
        step(act(view, context))
