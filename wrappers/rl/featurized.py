"""The featurized view: the single-agent view with a Box observation and Discrete templates.

Text spaces suit language models but not the usual RL libraries (stable-baselines3 accepts
no `Text` space). `FeaturizedEnv` wraps a `SingleAgentEnv` and changes only the agent's
interface: a featurizer reads every observation the agent receives into fixed features, and
the agent picks one of a fixed list of templates, which the featurizer turns into real actions
with arguments filled from what the episode revealed. `action_masks()` (the method
sb3-contrib's MaskablePPO calls) says which templates can be formed now (never which ones the
policy allows); a template that cannot sends nothing and only uses up a turn, so unmasked
algorithms (PPO, DQN) still run.

The user side, the task, the grading and the reward are the single-agent view's: the reward is
the task's grade at the end of the episode, 0 before. Episodes are truncated after
``max_turns`` templates.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from tau_env.actions import Action
from tau_env.errors import ResetNeeded

__all__ = ["FeaturizedEnv", "Featurizer"]


class Featurizer(Protocol):
    """Reads one episode's observations into features and turns templates into actions."""

    @property
    def feature_names(self) -> tuple[str, ...]:
        """What each feature means."""

    @property
    def template_names(self) -> tuple[str, ...]:
        """The templates, by action index."""

    def observe(self, observation: Mapping[str, Any]) -> None:
        """Read an observation of the agent (a dict of the single-agent view)."""

    def features(self) -> NDArray[np.float32]:
        """The current feature vector (values in [0, 1])."""

    def action_masks(self) -> NDArray[np.bool_]:
        """Which templates apply now."""

    def actions(self, index: int) -> list[Action]:
        """The actions of an applicable template, arguments filled in."""

    def skip(self, index: int) -> None:
        """Account for a turn spent on a template that does not apply."""


class FeaturizedEnv(gymnasium.Env[NDArray[np.float32], np.int64]):
    """A tau_env single-agent view with fixed features and action templates.

    Observation:
        ``Box(0, 1, (n_features + n_templates,), float32)``: the featurizer's features, then
        the action mask as 0/1 (``applies:<template>``; `feature_names` says what each entry
        is). The features are facts the agent's own tools and the customer revealed
        (statuses, owners, amounts, dates, counts, what the customer asked), never the
        policy's verdict; the mask says only which templates can be formed now (their
        arguments are known: nothing to refer to yet masks a template), never which the
        policy allows (issue 53). Whether a change is allowed, which reason a refusal gives
        and which fix the phone needs are the agent's to read from the facts.

    Action:
        ``Discrete(n_templates)``; ``action_masks()`` gives the applicable ones.

    Reward:
        The task's grade when the episode ends, else 0.

    Termination:
        As the wrapped view; ``truncated`` also after ``max_turns`` templates.

    Rendering:
        ``render_mode="ansi"`` or ``"human"`` (given to `make_featurized_env`): `render`
        returns or prints the conversation. Other modes raise `UnsupportedRenderMode`, which
        is a TypeError, so stable-baselines3's ``make_vec_env`` (which asks for
        ``"rgb_array"``) makes the view again without one.

    Info:
        The wrapped view's info (which never names the task: an id can name the hidden
        issues; ``reveal_task=True`` adds ``task_id``, for logging), plus ``action_mask`` and
        ``turn``.

    Args:
        env: A `SingleAgentEnv` (its user policy plays the user side; its lean ``advance``
            drives each move).
        featurizer: Builds a fresh featurizer per episode from the episode's limits
            (``max_turns``, and the wrapped env's ``max_steps``).
        task_ids: Draw episodes from these tasks only (seeded by ``reset(seed=...)``);
            None: the wrapped view draws from all of its tasks.
        max_turns: Templates per episode before truncation.
        reveal_task: Add ``task_id`` to ``info`` (privileged: for logging, not for agents).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        env: Any,
        featurizer: Callable[[int, int], Featurizer],
        *,
        task_ids: Sequence[str] | None = None,
        max_turns: int = 40,
        reveal_task: bool = False,
    ) -> None:
        if max_turns < 1:
            raise ValueError(f"max_turns must be >= 1, actually: {max_turns}")
        if task_ids is not None:
            known = {task.id for task in env.aec.tasks}
            unknown = [task_id for task_id in task_ids if task_id not in known]
            if not task_ids or unknown:
                raise ValueError(f"task_ids must name tasks of the env; unknown: {unknown[:3]}")
        self.env = env
        self.make_featurizer = featurizer
        self.task_ids = tuple(task_ids) if task_ids is not None else None
        self.max_turns = max_turns
        self.reveal_task = reveal_task
        self.max_steps = int(env.aec.unwrapped.max_steps)
        self.featurizer = featurizer(max_turns, self.max_steps)
        self.template_names = self.featurizer.template_names
        self.feature_names = (
            *self.featurizer.feature_names,
            *(f"applies:{name}" for name in self.template_names),
        )
        self.observation_space = spaces.Box(
            0.0, 1.0, shape=(len(self.feature_names),), dtype=np.float32
        )
        self.n_templates = len(self.template_names)
        self.action_space = spaces.Discrete(self.n_templates)
        self.turn = 0
        self.moves = 0
        self.render_mode = env.render_mode
        self._ended = True
        self._last_info: dict[str, Any] = {}

    @property
    def task(self) -> Any:
        """The task of the current episode (privileged information, for logging)."""
        return self.env.task

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """Start an episode (``options={"task_id": ...}`` picks the task)."""
        super().reset(seed=seed)
        options = dict(options or {})
        if "task_id" not in options and self.task_ids is not None:
            options["task_id"] = self.task_ids[int(self.np_random.integers(len(self.task_ids)))]
        observation, info = self.env.reset(seed=seed, options=options)
        self.featurizer = self.make_featurizer(self.max_turns, self.max_steps)
        self.featurizer.observe(observation)
        self.turn = 0
        self._ended = False
        return self._observation(), self._info(info)

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[NDArray[np.float32], SupportsFloat, bool, bool, dict[str, Any]]:
        """Play one template (its actions in order, the user answering in between)."""
        if self._ended:
            raise ResetNeeded("the episode has ended; call reset()")
        index = int(action)
        if not 0 <= index < self.n_templates:
            raise ValueError(f"template index must be in [0, {self.n_templates}), got {index}")
        self.turn += 1
        reward: SupportsFloat = 0.0
        terminated = truncated = False
        info = self._last_info
        featurizer = self.featurizer
        if featurizer.action_masks()[index]:
            for move in featurizer.actions(index):
                self.moves += 1
                observation, reward, terminated, truncated, info = self.env.step(move)
                featurizer.observe(observation)
                if terminated or truncated:
                    break
        else:
            featurizer.skip(index)
        if not (terminated or truncated) and self.turn >= self.max_turns:
            truncated = True
        self._ended = terminated or truncated
        return self._observation(), reward, terminated, truncated, self._info(info)

    def action_masks(self) -> NDArray[np.bool_]:
        """Which templates apply now."""
        return self.featurizer.action_masks()

    @property
    def agent_steps(self) -> int:
        """Agent actions played since the view was made (a template may play several)."""
        return self.moves

    def render(self) -> str | None:
        """The episode's conversation as text: returned (``ansi``) or printed (``human``).

        The features are numbers a policy reads (`feature_names` says what each is); what a
        person wants to see is the conversation the templates produced, so that is what is
        rendered. Without a render mode (``render_mode=None``, the default) nothing is.
        """
        return self.env.render()  # type: ignore[no-any-return]

    def close(self) -> None:
        """Close the wrapped view."""
        self.env.close()

    def _observation(self) -> NDArray[np.float32]:
        return np.concatenate(
            (self.featurizer.features(), self.featurizer.action_masks()), dtype=np.float32
        )

    def _info(self, info: dict[str, Any]) -> dict[str, Any]:
        self._last_info = info
        info = dict(info)
        if self.reveal_task:
            info["task_id"] = self.task.id
        info["action_mask"] = self.action_masks()
        info["turn"] = self.turn
        return info
