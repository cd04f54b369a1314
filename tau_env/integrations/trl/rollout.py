"""TRL's ``rollout_func``: whole tau_env episodes as one token sequence each, with ``env_mask``.

For each prompt (a `rollout_dataset` key: `ROLLOUT_KEY` and the task's opaque key, or a task
id in prompts made by hand) one episode is played in a chat view, the call's
episodes in lockstep (each turn of the batch is one batched ``generate``): the model
generates a turn from the episode's ids so far, the turn is parsed (`parse_assistant_text`:
Hermes/Qwen ``<tool_call>`` blocks or OpenAI JSON) and applied, and what came back (tool results,
the user's reply) is appended through the chat template (`EpisodeTokens`). The result keeps the
true multi-turn format: prompt ids, then the model's tokens (mask 1) interleaved with the
environment's (mask 0). The reward is the env's grade, passed to `tau_reward` as ``tau_reward``.

TRL hands the function the prompts already repeated ``num_generations`` times; it returns one
episode per prompt received. Episodes that run out of turns or of completion budget are not
graded and get reward 0 (``tau_finished`` is False). An episode whose NL judge failed to rule
is marked instead of stopping the batch: reward None (TRL leaves it out of its group's
baseline and gives it advantage 0), an ``env_mask`` of zeros (none of its tokens is in the
loss), ``tau_judge_failed`` True, a warning, and the ``tau_env/judge_failed`` metric (the
batch's share of such rollouts, logged by `tau_reward`).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tau_env.chat import ChatEnv, EpisodeTokens, SystemPrompt, make_chat_env, parse_assistant_text
from tau_env.integrations.trl.generation import ModelGenerate
from tau_env.integrations.trl.keys import is_task_key, keyed
from tau_env.integrations.trl.seeds import GroupSeeds, SeedSchedule, process_of

__all__ = [
    "ROLLOUT_KEY",
    "EpisodeRollout",
    "Generate",
    "TauRollout",
    "make_rollout_func",
    "tau_reward",
]

ROLLOUT_KEY = "tau_env task: "
"""Prefix of the prompt text that names the task a rollout plays (by its key)."""

Generate = Callable[[Any, list[int]], tuple[list[int], list[float]]]
"""(trainer, the episode's ids so far) -> (the turn's new ids, their log-probabilities)."""


@dataclass
class EpisodeRollout:
    """One played episode, as the rollout function returns it.

    Attributes:
        task_id: The task played.
        seed: The episode's seed.
        prompt_ids: Ids before the model's first turn.
        completion_ids: Model and environment ids after it.
        env_mask: 1 for the model's ids, 0 for the environment's.
        logprobs: Per completion id: the sampling log-probability (0 for environment ids).
        reward: The reward on the chat env's scale (0 when the episode did not finish; None
            when its NL judge failed to rule).
        breakdown: Each reward-basis check -> the fraction of its items met (empty when the
            episode did not finish or its judge failed).
        user_faults: What the simulated user got wrong (`tau_env.user_faults`; empty when the
            episode did not finish).
        finished: True when the episode ended within the turn and token budgets.
        judge_failed: True when the episode ended but its NL judge failed to rule (no reward,
            an all-zero ``env_mask``).
        tool_calls: Tool calls the model made that the env executed.
        messages: The chat of the episode.
    """

    task_id: str
    seed: int
    prompt_ids: list[int]
    completion_ids: list[int] = field(default_factory=list)
    env_mask: list[int] = field(default_factory=list)
    logprobs: list[float] = field(default_factory=list)
    reward: float | None = 0.0
    breakdown: dict[str, float | None] = field(default_factory=dict)
    user_faults: dict[str, Any] = field(default_factory=dict)
    finished: bool = False
    judge_failed: bool = False
    tool_calls: int = 0
    messages: list[dict[str, Any]] = field(default_factory=list)


class TauRollout:
    """A ``rollout_func`` for ``GRPOTrainer``: call it with ``(prompts, trainer)``.

    Built by `make_rollout_func`. The episodes of a call are played in lockstep, each in a chat
    view of its own: every turn, one model turn is sampled for each episode still going (in
    one batched call when `generate` has a ``many(trainer, batch)`` method, as `ModelGenerate`
    has), then each is applied. A scripted stand-in policy
    (`tau_env.baselines.stand_in.StandInPolicy`) reads the task being played from `chat`.

    Attributes:
        generate: ``(trainer, ids) -> (new ids, their logprobs)``, one model turn.
        seed: The base of the episode seeds.
        group_seeds: How a GRPO group's episodes are seeded (`tau_env.integrations.trl.seeds`).
        max_turns: Model turns per episode before it is cut.
        judge_failures: Episodes (in this process) whose NL judge failed to rule.
    """

    def __init__(
        self,
        new_chat: Callable[[], ChatEnv],
        generate: Generate,
        *,
        seed: int,
        group_seeds: GroupSeeds,
        max_turns: int,
    ) -> None:
        self.generate = generate
        self.seed = seed
        self.group_seeds = group_seeds
        self.max_turns = max_turns
        self._new_chat = new_chat
        self._chats = [new_chat()]  # one per episode of a call, reused by the next calls
        self._current = self._chats[0]
        self._schedule = SeedSchedule(group_seeds)
        self.judge_failures = 0
        self._tasks_by_key = keyed(t.id for t in self._current.single.aec.unwrapped.domain.tasks)

    @property
    def chat(self) -> ChatEnv:
        """The chat view of the episode a turn is being sampled for (else the first one)."""
        return self._current

    def __call__(self, prompts: list[Any], trainer: Any) -> dict[str, Any]:
        """One episode per prompt (TRL repeats each prompt ``num_generations`` times).

        With several processes every process calls it at once, each with its slice of the
        batch: the seeds are those of the whole batch (`SeedSchedule.batch`).
        """
        self._schedule.group_size = _group_size(trainer)
        while len(self._chats) < len(prompts):
            self._chats.append(self._new_chat())
        budget = int(getattr(trainer, "max_completion_length", None) or 1 << 30)
        tokenizer = trainer.processing_class
        task_ids = [self._task_of(prompt) for prompt in prompts]
        rank, world = process_of(trainer)
        seeds = self._schedule.batch(task_ids, self.seed, rank=rank, world=world)
        playing = [
            _Playing(chat, tokenizer, task_id, seed, budget)
            for chat, task_id, seed in zip(self._chats, task_ids, seeds, strict=False)
        ]
        for _ in range(self.max_turns):
            active = [episode for episode in playing if not episode.over]
            if not active:
                break
            for episode, (ids, logprobs) in zip(active, self._turns(trainer, active), strict=True):
                episode.take(ids, logprobs)
        episodes = [episode.result() for episode in playing]
        for unscored in (e for e in episodes if e.judge_failed):
            self.judge_failures += 1
            warnings.warn(
                f"tau_env: task {unscored.task_id} (seed {unscored.seed}): the NL judge did "
                f"not rule; rollout left unscored and out of the loss "
                f"({self.judge_failures} so far in this process)",
                stacklevel=2,
            )
        return {
            "prompt_ids": [e.prompt_ids for e in episodes],
            "completion_ids": [e.completion_ids for e in episodes],
            "logprobs": [e.logprobs for e in episodes],
            "env_mask": [e.env_mask for e in episodes],
            "tau_reward": [e.reward for e in episodes],
            "tau_finished": [e.finished for e in episodes],
            "tau_judge_failed": [e.judge_failed for e in episodes],
            "tau_tool_calls": [e.tool_calls for e in episodes],
            "tau_task_id": [e.task_id for e in episodes],
            "tau_seed": [e.seed for e in episodes],
            "tau_breakdown": [e.breakdown for e in episodes],
            "tau_user_faults": [e.user_faults for e in episodes],
        }

    def _task_of(self, prompt: Any) -> str | None:
        """The task id a prompt names: by its key, or by its id in a prompt made by hand.

        Raises:
            ValueError: The prompt is not a rollout key, or names a key unknown here.
        """
        named = task_id_of(prompt)
        if named is None or not is_task_key(named):
            return named
        task_id = self._tasks_by_key.get(named)
        if task_id is None:
            raise ValueError(
                f"unknown task key {named!r}: keys are made per process; build the dataset in "
                "the process that trains on it"
            )
        return task_id

    def _turns(self, trainer: Any, active: list[_Playing]) -> list[tuple[list[int], list[float]]]:
        """One model turn for each episode still going."""
        many = getattr(self.generate, "many", None)
        if many is not None:
            turns: list[tuple[list[int], list[float]]] = many(
                trainer, [episode.tokens.ids for episode in active]
            )
            return turns
        turns = []
        for episode in active:
            self._current = episode.chat
            turns.append(self.generate(trainer, episode.tokens.ids))
        return turns


class _Playing:
    """One episode of a rollout call, in progress: its chat, its tokens, its result so far."""

    def __init__(
        self, chat: ChatEnv, tokenizer: Any, task_id: str | None, seed: int, budget: int
    ) -> None:
        chat.reset(task_id=task_id, seed=seed)
        self.chat = chat
        self.tokenizer = tokenizer
        self.budget = budget
        self.tokens = EpisodeTokens(tokenizer, chat.tools)
        self.rollout = EpisodeRollout(chat.task_id, seed, self.tokens.start(chat.messages))
        self.over = False
        if chat.done:  # the user hung up before the agent's first turn: graded as it stands
            self._finish(chat.single.info())

    def take(self, ids: list[int], logprobs: list[float]) -> None:
        """Apply one sampled turn and append what came back."""
        chat, tokens, rollout = self.chat, self.tokens, self.rollout
        message = parse_assistant_text(_decode(self.tokenizer, ids))
        tokens.add_model_ids(ids, message)
        rollout.logprobs.extend(logprobs)
        turn = chat.step(message)
        rollout.tool_calls += sum(1 for m in turn.messages if m["role"] == "tool")
        if turn.done:
            self._finish(turn.info)
            return
        added = tokens.add_environment(turn.messages)
        rollout.logprobs.extend([0.0] * len(added))
        self.over = len(tokens.completion_ids) >= self.budget

    def _finish(self, info: dict[str, Any]) -> None:
        rollout, chat = self.rollout, self.chat
        rollout.finished = True
        rollout.judge_failed = chat.judge_failure is not None
        if rollout.judge_failed:
            rollout.reward = None
        else:
            rollout.reward = chat.scored_reward()
            rollout.breakdown = chat.reward_breakdown
        rollout.user_faults = info.get("user_faults", {})
        self.over = True

    def result(self) -> EpisodeRollout:
        """The episode as the rollout function returns it (cut to the completion budget)."""
        rollout, tokens, budget = self.rollout, self.tokens, self.budget
        rollout.completion_ids = tokens.completion_ids[:budget]
        mask = tokens.loss_mask[:budget]
        rollout.env_mask = [0] * len(mask) if rollout.judge_failed else mask
        rollout.logprobs = rollout.logprobs[:budget]
        rollout.messages = list(self.chat.messages)
        return rollout


def make_rollout_func(
    domain: str,
    *,
    user: Any = "scripted",
    mode: str = "default",
    split: str | None = None,
    data_dir: str | None = None,
    system_prompt: SystemPrompt | None = None,
    max_turns: int = 30,
    max_new_tokens: int = 256,
    generate: Generate | None = None,
    seed: int = 0,
    group_seeds: GroupSeeds = "shared",
    **options: Any,
) -> TauRollout:
    """A ``rollout_func`` for ``GRPOTrainer`` playing episodes of `domain`.

    Args:
        domain: Domain name or versioned id.
        user: The user participant (a `tau_env.chat.UserSpec`).
        mode: Evaluation mode.
        split: Split drawn from when a prompt names no task.
        data_dir: A reference data folder (None: built-in data).
        system_prompt: Instructions -> system message (default: tau_env's LLM agent prompt).
        max_turns: Model turns per episode before it is cut (unfinished: reward 0).
        max_new_tokens: Tokens per model turn.
        generate: How a turn is sampled (default: ``trainer.model.generate``, sampling at the
            trainer's temperature, stopping at the tokenizer's EOS).
        seed: The base of the episode seeds (`tau_env.integrations.trl.seeds`).
        group_seeds: ``"shared"`` (the rollouts of a GRPO group, the consecutive copies of one
            prompt, play one seed), ``"distinct"`` (every rollout its own) or ``"fixed"``
            (`seed` for every episode); with several processes, the seeds one process would
            give the whole batch.
        **options: Further `make_chat_env` arguments: ``reward`` (``"binary"``,
            ``"partial"``, ``"breakdown"``; per-check rewards: `component_rewards`), ``judge``
            (tasks scored by NL assertions need one), ``user_model``, ``max_steps``...
    """
    if max_turns < 1 or max_new_tokens < 1:
        raise ValueError(
            f"max_turns and max_new_tokens must be >= 1: {max_turns}, {max_new_tokens}"
        )

    def new_chat() -> ChatEnv:
        return make_chat_env(
            domain,
            user=user,
            mode=mode,
            split=split,
            data_dir=data_dir,
            system_prompt=system_prompt,
            **options,
        )

    return TauRollout(
        new_chat,
        generate or ModelGenerate(max_new_tokens),
        seed=seed,
        group_seeds=group_seeds,
        max_turns=max_turns,
    )


def play_episode(
    chat: ChatEnv,
    trainer: Any,
    task_id: str | None,
    *,
    seed: int,
    generate: Generate,
    max_turns: int,
    max_completion: int,
) -> EpisodeRollout:
    """Play one episode with the trainer's model (the lockstep loop of `TauRollout`, alone)."""
    episode = _Playing(chat, trainer.processing_class, task_id, seed, max_completion)
    for _ in range(max_turns):
        if episode.over:
            break
        episode.take(*generate(trainer, episode.tokens.ids))
    return episode.result()


def task_id_of(prompt: Any) -> str | None:
    """What a `rollout_dataset` prompt names: a task key, or a task id (None: a draw).

    Raises:
        ValueError: The prompt is not a rollout key.
    """
    text = prompt[-1].get("content") if isinstance(prompt, list) and prompt else prompt
    if not isinstance(text, str) or not text.startswith(ROLLOUT_KEY):
        raise ValueError(f"a rollout prompt must be {ROLLOUT_KEY!r} + task id, actually: {text!r}")
    return text[len(ROLLOUT_KEY) :].strip() or None


def tau_reward(
    completions: Sequence[Any],
    tau_reward: Sequence[float | None],
    tau_judge_failed: Sequence[bool] | None = None,
    log_metric: Callable[[str, float], None] | None = None,
    **_: Any,
) -> list[float | None]:
    """GRPO reward function: each episode's reward on the rollout function's scale.

    None for an episode whose NL judge failed to rule; the share of those in the batch is
    logged as ``tau_env/judge_failed`` (through TRL's ``log_metric``).
    """
    if log_metric is not None and tau_judge_failed is not None and len(tau_judge_failed):
        log_metric("tau_env/judge_failed", sum(map(bool, tau_judge_failed)) / len(tau_judge_failed))
    return [None if reward is None else float(reward) for reward in tau_reward]


def _group_size(trainer: Any) -> int | None:
    """The trainer's rollouts per group (None when it has no ``num_generations``).

    In evaluation TRL groups ``num_generations_eval`` rollouts (when it sets one).
    """
    model = getattr(trainer, "model", None)
    evaluating = model is not None and getattr(model, "training", True) is False
    size = getattr(trainer, "num_generations_eval" if evaluating else "num_generations", None)
    if evaluating and not isinstance(size, int):
        size = getattr(trainer, "num_generations", None)
    return size if isinstance(size, int) else None


def _decode(tokenizer: Any, ids: list[int]) -> str:
    eos = tokenizer.eos_token_id
    body = ids[:-1] if ids and ids[-1] == eos else ids
    return str(tokenizer.decode(body, skip_special_tokens=False))


def _model_generate(max_new_tokens: int) -> Generate:
    """The model's sampling (kept for callers of this name): `ModelGenerate`."""
    return ModelGenerate(max_new_tokens)
