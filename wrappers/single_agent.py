"""The single-agent view: a tau_env AEC env as a `gymnasium.Env` for the agent.

A user policy (any participant: `ScriptedUser`, `LLMUser`, `ReplayUser`...) plays the user
side inside `step`, synchronously and without threads: the agent acts, then the user acts
until the floor comes back to the agent or the episode ends. The agent's observation, action
space and terminal reward are those of the AEC env's ``"agent"`` side.

Errors of the user policy: a `ParticipantError` or `ContextWindowExceeded` (a user policy's
own failure, an LLM user's overlong conversation) ends the episode as the user's error
(reward 0, the reason in ``info["user_error"]``); an `InfrastructureError` propagates (not
scoreable), as do an LLM user's empty replies once asked again (`tau_env.wrappers.users.
llm_user`). ``info["user_faults"]`` flags what the user got wrong (`tau_env.user_faults`).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any, SupportsFloat

import gymnasium

from tau_env.actions import Action, SendMessage
from tau_env.episode_runner import bare_env
from tau_env.errors import (
    ContextWindowExceeded,
    JudgeError,
    ParticipantError,
    ResetNeeded,
    TauEnvError,
)
from tau_env.grading.reward import (
    RewardKind,
    check_reward,
    has_nl_judge,
    needs_nl_judge,
    reward_breakdown,
    reward_of,
    with_skipped_verdicts,
)
from tau_env.participant import (
    Participant,
    ParticipantFactory,
    build_participant,
    participant_seed,
)
from tau_env.user_faults import UserFaults, user_faults

__all__ = ["SingleAgentEnv"]

Mode = Callable[[Any], Any]
"""A wrapper class or function applied to the AEC env (``NoUser``, ``OraclePlan``...)."""


class SingleAgentEnv(gymnasium.Env[dict[str, Any], Any]):
    """The agent's view of a two-sided conversation, with the user played by a given policy.

    Observation:
        The agent's observation (`tau_env.env.spaces.observation_space`): the messages that
        reached it since it last acted, its instructions and the step count.

    Action:
        The agent's action space (`Dict(kind, content, tool, arguments)`), or the action models
        `SendMessage`, `CallTool`, `Stop`.

    Reward:
        0 until the episode ends, then the task's reward on the chosen scale (`reward`:
        ``"binary"``, the benchmark's; ``"partial"``, the fraction of checks met;
        ``"breakdown"``, binary plus ``info["reward_breakdown"]``, the per-check vector; see
        `tau_env.grading.reward`). The grade is in ``info["grade"]``.

    Termination:
        ``terminated`` for a stop or too many errors, ``truncated`` for the step limit.

    Tasks:
        ``reset(options={"task_id": ...})`` plays that task; otherwise the task is drawn
        uniformly from `tasks` with the view's seeded generator, so ``reset(seed=s)``
        always plays the same task the same way (with a deterministic user).

    Judging:
        A task whose reward needs an NL judge is never scored 0 for want of one: when the env
        has no judge (``make_env(..., judge=...)``), such tasks are left out of the draws (a
        warning says how many) and naming one is refused with a `TauEnvError`.

    Seeds:
        The user policy gets the episode's seed (`tau_env.participant`'s rule: the seed given
        to ``reset``, else the one the env drew), so a scripted user's wording and an LLM
        user's request seed follow ``reset(seed=...)``.

    Args:
        env: A tau_env AEC env (e.g. ``tau_env.make_env("mock")``), possibly wrapped in modes.
        user: Builds the user policy for each episode's task. Required when the env has a
            user side; ignored (and may be None) when it has none (`NoUser`).
        reward: The reward's scale: ``"binary"`` (default), ``"partial"`` or ``"breakdown"``.

    Attributes:
        aec: The AEC env as given (episodes are reset through it).
        driven: The env the steps go to: the bare `TauEnv` when only PettingZoo's
            order-enforcing wrapper is around it (as `run_episode` drives it, saving the
            wrapper's attribute forwarding on every access), else `aec` itself (a mode may
            change what a side sees or does). Views that read the env per turn read this one.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self, env: Any, user: ParticipantFactory | None = None, *, reward: RewardKind = "binary"
    ) -> None:
        self.reward_kind = check_reward(reward)
        if "agent" not in env.possible_agents:
            raise ValueError("the env has no 'agent' side")
        self.has_user = "user" in env.possible_agents
        if self.has_user and user is None:
            raise ValueError("the env has a user side: pass user=<task -> user policy>")
        if user is not None and not callable(user):
            raise TypeError(f"user must build a policy from a task, actually: {user!r}")
        self.aec = env
        self.driven: Any = bare_env(env) or env
        self.user_factory = user if self.has_user else None
        self.observation_space = env.observation_space("agent")
        self.action_space = env.action_space("agent")
        self.render_mode = env.unwrapped.render_mode
        self.user: Participant | None = None
        self._ended = True
        self._user_error: str | None = None
        self._tasks: list[Any] | None = None  # `tasks`, worked out on first use
        self._judge: bool | None = None  # whether the env can judge NL assertions (first use)
        self._full: tuple[Any, Any] | None = None  # (grade, `full_grade`) of the last episode
        self._faults: tuple[Any, UserFaults] | None = None  # (grade, `user_faults`) likewise

    @property
    def task(self) -> Any:
        """The task of the current episode (privileged information, for logging)."""
        return self.aec.unwrapped.task

    @property
    def tasks(self) -> list[Any]:
        """The tasks `reset` draws from.

        The env's (a mode may narrow them), less those whose reward needs an NL judge when the
        env has none.
        """
        if self._tasks is None:
            tasks = list(self.aec.tasks)
            if not has_nl_judge(self.aec.unwrapped.grader):
                judged = [task for task in tasks if not needs_nl_judge(task)]
                if len(judged) < len(tasks):
                    warnings.warn(
                        f"tau_env: {len(tasks) - len(judged)} of {len(tasks)} tasks need an NL "
                        "judge and are left out (pass judge=... to score them)",
                        stacklevel=3,
                    )
                if not judged:
                    raise TauEnvError("every task needs an NL judge: pass judge=...")
                tasks = judged
            self._tasks = tasks
        return self._tasks

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start an episode; the user opens (when there is one) before the agent observes."""
        super().reset(seed=seed)
        options = dict(options or {})
        if "task_id" not in options:
            tasks = self.tasks
            options["task_id"] = tasks[int(self.np_random.integers(len(tasks)))].id
        self.begin(options.pop("task_id"), seed=seed, options=options)
        return self.driven.observe("agent"), self.info()

    def begin(
        self, task_id: str, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> bool:
        """Start an episode of `task_id`, building no observation: the lean `reset`.

        For views that read the AEC env themselves (the chat view): the view's own generator,
        which only draws tasks, is left as it is. Returns True when the episode has already
        ended (the user closed the call before the agent acted).

        Raises:
            TauEnvError: The task's reward needs an NL judge and the env has none (nothing
                changes).
        """
        self._check_judge(task_id)
        self.aec.reset(seed=seed, options={**(options or {}), "task_id": task_id})
        if self.user_factory is not None:
            raw = self.driven.unwrapped
            user = build_participant(self.user_factory, raw.task, participant_seed(raw, seed))
            if not hasattr(user, "act"):
                raise TypeError(f"{type(user).__name__} has no act(); the view needs sync users")
            self.user = user  # type: ignore[assignment]
        self._user_error = None
        self._play_user()
        self._ended = any(self._flags())  # the user may end the call before the agent acts
        return self._ended

    def step(self, action: Any) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        """The agent acts, then the user until it is the agent's turn again (or the end).

        Raises:
            JudgeError: The episode ended and its NL judge failed to rule (after its
                retries): there is no reward to give (an infrastructure failure).
        """
        terminated, truncated = self.advance(action)
        reward = 0.0
        if terminated or truncated:
            final = self.final_reward()
            if final is None:
                note = self.driven.unwrapped.grade.note
                raise JudgeError(f"no reward: the NL judge did not rule ({note})", transient=False)
            reward = final
        return self.driven.observe("agent"), reward, terminated, truncated, self.info()

    def final_reward(self) -> float | None:
        """The ended episode's reward on the chosen scale (None: its NL judge did not rule)."""
        if self.reward_kind == "partial":
            return reward_of(self.full_grade(), "partial")
        return reward_of(self.driven.unwrapped.grade, self.reward_kind)

    def reward_breakdown(self) -> dict[str, float | None]:
        """The ended episode's per-check vector (`tau_env.grading.reward.reward_breakdown`)."""
        return reward_breakdown(self.full_grade())

    def full_grade(self) -> Any:
        """The ended episode's grade with every NL assertion judged, skipped ones included.

        The grader does not ask the judge when another check is 0 (the reward is 0 anyway);
        partial credit and the breakdown count each assertion, so they are judged here, once
        per episode.
        """
        raw = self.driven.unwrapped
        grade = raw.grade
        if self._full is None or self._full[0] is not grade:
            judge = getattr(raw.grader, "judge", None)
            full = with_skipped_verdicts(grade, raw.conversation.trajectory, raw.task, judge)
            self._full = (grade, full)
        return self._full[1]

    def advance(self, action: Any) -> tuple[bool, bool]:
        """The agent acts, then the user plays: the lean `step`, ``(terminated, truncated)``.

        Builds neither the observation nor the info (views that read the AEC env themselves
        ask for what they need: `info`, ``aec.rewards``).

        Raises:
            ResetNeeded: No episode is in progress.
        """
        if self._ended:
            raise ResetNeeded("the episode has ended; call reset()")
        self.driven.step(action)
        self._play_user()
        terminated, truncated = self._flags()
        self._ended = terminated or truncated
        return terminated, truncated

    def info(self) -> dict[str, Any]:
        """The agent's info now.

        At the end ``grade``, ``termination``, ``user_faults`` (what the simulated user got
        wrong, `tau_env.user_faults`), ``reward_breakdown`` (with ``reward="breakdown"``) and,
        when the user policy failed, ``user_error``. Never the task's id (issue 53: an id can
        spell out the answer): `task` is there for logging.
        """
        info = dict(self.driven.infos["agent"])
        if self._user_error is not None:
            info["user_error"] = self._user_error
        if self._ended:
            if self.user_factory is not None:
                info["user_faults"] = self.user_faults().to_dict()
            if self.reward_kind == "breakdown":
                info["reward_breakdown"] = self.reward_breakdown()
        return info

    def user_faults(self) -> UserFaults:
        """What the simulated user got wrong in the ended episode (once per episode)."""
        raw = self.driven.unwrapped
        grade = raw.grade
        if self._faults is None or self._faults[0] is not grade:
            tools = [tool["function"]["name"] for tool in raw.context("user").tools]
            empty = getattr(self.user, "empty_replies", 0)
            faults = user_faults(
                raw.task,
                raw.conversation.trajectory,
                grade.termination.value,
                user_tools=tools,
                agent_tools=raw.context("agent").tool_names,
                empty_replies=empty if isinstance(empty, int) else 0,
            )
            self._faults = (grade, faults)
        return self._faults[1]

    def render(self) -> str | None:
        """The transcript (``ansi``), or print it (``human``); nothing without a render mode."""
        if self.render_mode is None:
            return None
        return self.aec.render()  # type: ignore[no-any-return]

    def close(self) -> None:
        """Close the AEC env."""
        self.aec.close()

    # -- internals -----------------------------------------------------------------------------
    def _check_judge(self, task_id: str) -> None:
        raw = self.aec.unwrapped
        if self._judge is None:
            self._judge = has_nl_judge(raw.grader)
        if not self._judge and needs_nl_judge(raw.domain.task(task_id)):
            raise TauEnvError(
                f"task {task_id!r} is scored by NL assertions and the env has no judge: pass "
                "judge=<model or LLMJudge> (tau-env serve: --judge-model), or leave the task out"
            )

    def _flags(self) -> tuple[bool, bool]:
        driven = self.driven
        return bool(driven.terminations["agent"]), bool(driven.truncations["agent"])

    def _play_user(self) -> None:
        """Let the user act while it holds the floor."""
        driven = self.driven
        while driven.agent_selection == "user":
            if driven.terminations["agent"] or driven.truncations["agent"]:
                return
            driven.step(self._user_action())

    def _user_action(self) -> Action:
        if self.user is None:
            raise RuntimeError("the user side has the floor but no user policy was given")
        driven = self.driven
        try:
            return self.user.act(driven.view("user"), driven.context("user"))
        except (ParticipantError, ContextWindowExceeded) as error:
            self._user_error = f"{type(error).__name__}: {error}"
            return SendMessage(content="")  # ends the episode as the user's error


def make_single_agent_env(
    domain: str,
    *,
    user: ParticipantFactory | str | None = "scripted",
    llm: Any = None,
    modes: Sequence[Mode] = (),
    data_dir: str | None = None,
    split: str | None = None,
    task_id: str | None = None,
    render_mode: str | None = None,
    reward: RewardKind = "binary",
    **options: Any,
) -> SingleAgentEnv:
    """Entry point of the registered gymnasium ids (``tau_env/Mock-v0``...).

    Args:
        domain: Domain name (``"mock"``, ``"telecom"``...).
        user: ``"scripted"`` (default, `ScriptedUser`), ``"llm"`` (`LLMUser` on `llm`), or a
            factory ``task -> user policy``. Ignored under `NoUser`.
        llm: For ``user="llm"``: an `LLMClient` or a `ModelConfig`.
        modes: Wrappers applied to the AEC env first, in order (``[NoUser, OraclePlan]``).
        data_dir: A reference data folder (None: built-in data).
        split: Task split.
        task_id: Play only this task.
        render_mode: ``"ansi"`` or ``"human"``.
        reward: ``"binary"``, ``"partial"`` or ``"breakdown"`` (`tau_env.grading.reward`).
        **options: Further `TauEnv` arguments (``max_steps``, ``max_errors``, ``grader``,
            ``judge``: tasks scored by NL assertions are left out without one).
    """
    from tau_env.loader import make_env

    env = make_env(
        domain, task_id, data_dir=data_dir, split=split, render_mode=render_mode, **options
    )
    for mode in modes:
        env = mode(env)
    return SingleAgentEnv(env, _user_factory(user, llm, env), reward=reward)


def _user_factory(user: ParticipantFactory | str | None, llm: Any, env: Any) -> Any:
    if "user" not in env.possible_agents:
        return None
    if user is None or callable(user):
        return user
    domain = env.unwrapped.domain
    if user == "scripted":
        from tau_env.wrappers.users.scripted import ScriptedUser

        return ScriptedUser.factory(domain)
    if user == "llm":
        from tau_env.llm import LLMClient, ModelConfig
        from tau_env.wrappers.users.llm_user import LLMUser

        if isinstance(llm, ModelConfig):
            llm = LLMClient(llm)
        if not isinstance(llm, LLMClient):
            raise ValueError("user='llm' needs llm=<LLMClient or ModelConfig>")
        return LLMUser.factory(llm, domain)
    raise ValueError(f"user must be 'scripted', 'llm' or a factory, actually: {user!r}")
