"""A light gold replay: `run_episode(env, OracleAgent, GoldUser)`'s grade, without the AEC loop.

``tau-env generate`` plays every task of a set once with the oracle agent and the gold user and
requires reward 1.0. Through `TauEnv` that costs about 2.5 ms a task, half of it the gold user
reading its opening line out of the scenario text. `GoldReplay` plays the same episode with
the same parts, minus what cannot change the grade of a gold replay:

- the same starting world (`Domain.prepare`, forked with the seed the env's ``reset(seed)``
  gives the episode), the task's message history, and the env's step and error limits;
- the same turn protocol (`Conversation`: every tool call runs through the world, errors and
  steps are counted, a stop or a stop token ends it);
- the same agent (`OracleAgent`: its gold tool calls, its requests of the user's steps, its
  closing message with every fact to communicate) and the gold user's own rules (perform the
  requested calls one by one, report back, stop, with ``transfer`` after a transfer);
- the same grader (`TaskGrader`, the env's default) on the same `Episode` (the domain's
  expected world and baseline), so DB, ENV_ASSERTION, ACTION and COMMUNICATE are the checks
  `TauEnv` runs, strict rules included.

What the full episode adds, and this one does not check:

- the gold user's opening line: `GoldUser` reads it from the scenario with the scripted
  user's reader and refuses one holding a stop token; here the user opens with a fixed line
  (no grader reads the user's words: COMMUNICATE reads the agent's);
- PettingZoo's bookkeeping around the conversation (turn selection, per-side rewards,
  terminations, dead steps, infos) and the sides' contexts (policy text, tool schemas), which
  neither participant reads.

``tests/generation/test_gold_replay.py`` shows both give the same reward (and the same
component checks) on every task of every built-in set, and on deliberately broken tasks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from gymnasium.utils import seeding

from tau_env.actions import Action, SendMessage
from tau_env.baselines.oracle import OracleAgent, flagged_actions
from tau_env.domain import Domain
from tau_env.env.aec import TauEnv
from tau_env.env.conversation import Conversation, SideView
from tau_env.grading.context import Episode
from tau_env.grading.grader import TaskGrader
from tau_env.grading.outcome import Grade
from tau_env.messages import Side
from tau_env.tasks.model import Task
from tau_env.wrappers.users.gold import GoldUser

__all__ = ["OPENING", "GoldReplay", "episode_seed"]

OPENING = "Hello, I need some help with my account."
"""The light gold user's first message (the full one reads it from the scenario)."""

_SEED_BOUND = 1 << 63  # as `TauEnv.reset` draws episode seeds


class _OnceOracle(OracleAgent):
    """`OracleAgent` whose actions are worked out for its episode, not kept per task.

    The oracle keeps each task's actions for its next episode (up to 10,000 tasks); a gold
    replay plays each task once, so keeping them would only hold a chunk's tasks in memory
    while the next chunk is played. The actions are the same.
    """

    def _prepare(self) -> tuple[tuple[Action, bool], ...]:
        self._script = flagged_actions(tuple(self.actions()))
        return self._script


_OPENING_ACTION = SendMessage(content=OPENING)


def episode_seed(seed: int, task_count: int) -> int:
    """The episode seed ``TauEnv.reset(seed)`` draws when choosing among `task_count` tasks."""
    rng, _ = seeding.np_random(seed)
    rng.integers(task_count)  # the draw of the task comes first
    return int(rng.integers(_SEED_BOUND))


class GoldReplay:
    """Plays tasks of one domain as `run_episode` plays them with the oracle and gold user.

    ``GoldReplay(domain, seed, tasks).grade(task)`` is the grade of ``run_episode(TauEnv(domain,
    tasks), OracleAgent, GoldUser, task_id=task.id, seed=seed)``.

    Args:
        domain: The loaded domain (its tasks, worlds, expected worlds and baselines).
        seed: The seed ``reset`` would get; the episode seed is drawn from it as
            `TauEnv.reset` draws it (the task index first, among `tasks`).
        tasks: The env's tasks, as ``TauEnv(domain, tasks)`` (None: the default split).
        task_count: How many tasks the env draws among, when not `tasks` (a share of a set
            loaded alone plays each task as the whole set's env would).
    """

    def __init__(
        self,
        domain: Domain,
        seed: int = 0,
        tasks: Sequence[Task] | None = None,
        *,
        task_count: int | None = None,
    ) -> None:
        env = TauEnv(domain, tasks)  # its limits, grader and tasks, as the full path has
        self.domain = domain
        self.grader: TaskGrader = env.grader
        self.max_steps = env.max_steps
        self.max_errors = env.max_errors
        self.episode_seed = episode_seed(seed, task_count or len(env.tasks))

    def grade(self, task: Task) -> Grade:
        """The grade of the gold replay of `task` (the task's cached worlds are kept)."""
        domain = self.domain
        seed = self.episode_seed
        world = domain.prepare(task).initial_world.fork(seed)
        history = task.initial_state.message_history if task.initial_state else None
        conversation = Conversation(world, history, self.max_steps, self.max_errors)
        # Neither participant reads its context (policy, tool schemas): it is not made.
        players: dict[Side, Callable[[SideView, Any], Action]] = {
            "agent": _OnceOracle(task).act,
            "user": GoldUser(task, opening=_OPENING_ACTION).act,
        }
        views = conversation.views
        act = conversation.act
        while conversation.termination is None:
            side = conversation.turn
            act(players[side](views[side], None))
        drawn = world.seed_source.drawn
        episode = Episode(
            task,
            conversation.trajectory,
            world,
            conversation.termination,
            partial(domain.expected_world, task, seed if drawn else None),
            partial(domain.baseline, task),
        )
        return self.grader.grade(episode)
