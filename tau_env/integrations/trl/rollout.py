"""TRL's ``rollout_func``: whole tau_env episodes as one token sequence each, with ``env_mask``.

For each prompt (a `rollout_dataset` key) one episode is played in the chat view: the model
generates a turn from the episode's ids so far, the turn is parsed (`parse_assistant_text`:
Hermes/Qwen ``<tool_call>`` blocks or OpenAI JSON) and applied, and what came back (tool results,
the user's reply) is appended through the chat template (`EpisodeTokens`). The result keeps the
true multi-turn format: prompt ids, then the model's tokens (mask 1) interleaved with the
environment's (mask 0). The reward is the env's grade, passed to `tau_reward` as ``tau_reward``.

TRL hands the function the prompts already repeated ``num_generations`` times; it returns one
episode per prompt received. Episodes that run out of turns or of completion budget are not
graded and get reward 0 (``tau_finished`` is False).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tau_env.chat import ChatEnv, EpisodeTokens, SystemPrompt, make_chat_env, parse_assistant_text
from tau_env.utils.extras import require_extra

__all__ = ["ROLLOUT_KEY", "EpisodeRollout", "Generate", "make_rollout_func", "tau_reward"]

ROLLOUT_KEY = "tau_env task: "
"""Prefix of the prompt text that names the task a rollout plays."""

Generate = Callable[[Any, list[int]], tuple[list[int], list[float]]]
"""(trainer, the episode's ids so far) -> (the turn's new ids, their log-probabilities)."""


@dataclass
class EpisodeRollout:
    """One played episode, as the rollout function returns it.

    Attributes:
        task_id: The task played.
        prompt_ids: Ids before the model's first turn.
        completion_ids: Model and environment ids after it.
        env_mask: 1 for the model's ids, 0 for the environment's.
        logprobs: Per completion id: the sampling log-probability (0 for environment ids).
        reward: The grade's reward (0 when the episode did not finish).
        finished: True when the episode ended within the turn and token budgets.
        tool_calls: Tool calls the model made that the env executed.
        messages: The chat of the episode.
    """

    task_id: str
    prompt_ids: list[int]
    completion_ids: list[int] = field(default_factory=list)
    env_mask: list[int] = field(default_factory=list)
    logprobs: list[float] = field(default_factory=list)
    reward: float = 0.0
    finished: bool = False
    tool_calls: int = 0
    messages: list[dict[str, Any]] = field(default_factory=list)


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
    **options: Any,
) -> Callable[[list[Any], Any], dict[str, Any]]:
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
        seed: First episode seed; each episode played takes the next one.
        **options: Further `make_chat_env` arguments.
    """
    if max_turns < 1 or max_new_tokens < 1:
        raise ValueError(
            f"max_turns and max_new_tokens must be >= 1: {max_turns}, {max_new_tokens}"
        )
    state: dict[str, Any] = {"chat": None, "seed": seed}
    sample = generate or _model_generate(max_new_tokens)

    def rollout_func(prompts: list[Any], trainer: Any) -> dict[str, Any]:
        if state["chat"] is None:
            state["chat"] = make_chat_env(
                domain,
                user=user,
                mode=mode,
                split=split,
                data_dir=data_dir,
                system_prompt=system_prompt,
                **options,
            )
        budget = int(getattr(trainer, "max_completion_length", None) or 1 << 30)
        episodes = []
        for prompt in prompts:
            state["seed"] += 1
            episodes.append(
                play_episode(
                    state["chat"],
                    trainer,
                    task_id_of(prompt),
                    seed=state["seed"],
                    generate=sample,
                    max_turns=max_turns,
                    max_completion=budget,
                )
            )
        return {
            "prompt_ids": [e.prompt_ids for e in episodes],
            "completion_ids": [e.completion_ids for e in episodes],
            "logprobs": [e.logprobs for e in episodes],
            "env_mask": [e.env_mask for e in episodes],
            "tau_reward": [e.reward for e in episodes],
            "tau_finished": [e.finished for e in episodes],
            "tau_tool_calls": [e.tool_calls for e in episodes],
            "tau_task_id": [e.task_id for e in episodes],
        }

    return rollout_func


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
    """Play one episode with the trainer's model; see the module docstring."""
    tokenizer = trainer.processing_class
    chat.reset(task_id=task_id, seed=seed)
    tokens = EpisodeTokens(tokenizer, chat.tools)
    rollout = EpisodeRollout(chat.task_id, tokens.start(chat.messages))
    for _ in range(max_turns):
        ids, logprobs = generate(trainer, tokens.ids)
        message = parse_assistant_text(_decode(tokenizer, ids))
        tokens.add_model_ids(ids, message)
        rollout.logprobs.extend(logprobs)
        turn = chat.step(message)
        rollout.tool_calls += sum(1 for m in turn.messages if m["role"] == "tool")
        if turn.done:
            rollout.finished = True
            rollout.reward = turn.reward
            break
        added = tokens.add_environment(turn.messages)
        rollout.logprobs.extend([0.0] * len(added))
        if len(tokens.completion_ids) >= max_completion:
            break
    rollout.completion_ids = tokens.completion_ids[:max_completion]
    rollout.env_mask = tokens.loss_mask[:max_completion]
    rollout.logprobs = rollout.logprobs[:max_completion]
    rollout.messages = list(chat.messages)
    return rollout


def task_id_of(prompt: Any) -> str | None:
    """The task a `rollout_dataset` prompt names (None: let the env draw one).

    Raises:
        ValueError: The prompt is not a rollout key.
    """
    text = prompt[-1].get("content") if isinstance(prompt, list) and prompt else prompt
    if not isinstance(text, str) or not text.startswith(ROLLOUT_KEY):
        raise ValueError(f"a rollout prompt must be {ROLLOUT_KEY!r} + task id, actually: {text!r}")
    return text[len(ROLLOUT_KEY) :].strip() or None


def tau_reward(completions: Sequence[Any], tau_reward: Sequence[float], **_: Any) -> list[float]:
    """GRPO reward function: the env's grade of each episode (from the rollout function)."""
    return [float(reward) for reward in tau_reward]


def _decode(tokenizer: Any, ids: list[int]) -> str:
    eos = tokenizer.eos_token_id
    body = ids[:-1] if ids and ids[-1] == eos else ids
    return str(tokenizer.decode(body, skip_special_tokens=False))


def _model_generate(max_new_tokens: int) -> Generate:
    def generate(trainer: Any, ids: list[int]) -> tuple[list[int], list[float]]:
        require_extra("trl", "torch", feature="tau_env.integrations.trl")
        import torch

        model = trainer.model
        tokenizer = trainer.processing_class
        inputs = torch.tensor([ids], device=model.device)
        with torch.no_grad():
            out = model.generate(
                inputs,
                attention_mask=torch.ones_like(inputs),
                max_new_tokens=max_new_tokens,
                do_sample=True,
                temperature=float(getattr(trainer, "temperature", 1.0) or 1.0),
                eos_token_id=tokenizer.eos_token_id,
                pad_token_id=tokenizer.pad_token_id,
                output_scores=True,
                return_dict_in_generate=True,
            )
            scores = model.compute_transition_scores(
                out.sequences, out.scores, normalize_logits=True
            )
        new = out.sequences[0, inputs.shape[1] :].tolist()
        logprobs = scores[0, : len(new)].tolist()
        if tokenizer.eos_token_id in new:  # generation stops at EOS; nothing after counts
            end = new.index(tokenizer.eos_token_id) + 1
            new, logprobs = new[:end], logprobs[:end]
        return [int(i) for i in new], [float(p) for p in logprobs]

    return generate
