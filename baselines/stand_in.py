"""A scripted stand-in for an LLM policy in GRPO: the gold plan, failing at a given rate.

GRPO learns only from groups whose rewards differ. An untrained small model rarely solves a
task, so on CPU nothing shows that the training loop would learn; this stand-in does. It plays
the task's gold plan (`tau_env.baselines.oracle.PlainTextOracleAgent`'s actions, written as a
Qwen/Hermes-style model writes them: ``<tool_call>`` blocks or plain text), except that at
each turn, with probability `failure_rate`, it gives up (``###STOP###``), which fails the task.
The tokens are real: encoded with the trainer's tokenizer, their log-probabilities computed by
the trainer's model, so the policy gradient flows through the model as it would for sampled
text.

It reads the gold plan, so it is an oracle: a check of the training loop's signal, never a
learning result. Use it as a `tau_env.integrations.trl.TauRollout`'s ``generate``:
``rollout.generate = StandInPolicy(rollout, failure_rate=0.3)``.
"""

from __future__ import annotations

import json
import random
from typing import Any

from tau_env.baselines.oracle import PlainTextOracleAgent
from tau_env.chat import action_message, render_tool_call

__all__ = ["GIVE_UP", "StandInPolicy"]

GIVE_UP = "I am sorry, I cannot help with this. ###STOP###"
"""What the stand-in says when it fails a turn (it ends the conversation)."""


class StandInPolicy:
    """``generate`` for a `TauRollout`: the gold plan as model tokens, failing at a rate.

    Args:
        rollout: The `TauRollout` it plays for: the task being played is read from its
            ``chat`` (the chat view of the episode a turn is asked for).
        failure_rate: Probability, per turn, of giving up instead of the plan's next step.
        seed: Seeds the failures (the same seed gives the same failures in the same order).
    """

    def __init__(self, rollout: Any, *, failure_rate: float, seed: int = 0) -> None:
        if not 0.0 <= failure_rate <= 1.0:
            raise ValueError(f"failure_rate must be in [0, 1], actually: {failure_rate}")
        self.rollout = rollout
        self.failure_rate = failure_rate
        self.rng = random.Random(seed)
        # id(conversation) -> (the conversation, its plan's player): one per episode in play.
        self._agents: dict[int, tuple[Any, PlainTextOracleAgent]] = {}

    def __call__(self, trainer: Any, ids: list[int]) -> tuple[list[int], list[float]]:
        """The next turn's token ids and their log-probabilities under the trainer's model."""
        tokenizer = trainer.processing_class
        text = self.text()
        new = [*tokenizer.encode(text, add_special_tokens=False), tokenizer.eos_token_id]
        return new, _logprobs(trainer.model, ids, new)

    def text(self) -> str:
        """The next turn as the model would write it."""
        chat = self.rollout.chat
        conversation = chat.single.driven.unwrapped.conversation
        known = self._agents.get(id(conversation))
        if known is None or known[0] is not conversation:
            if len(self._agents) > 1024:  # episodes of past calls
                self._agents.clear()
            known = (conversation, PlainTextOracleAgent(chat.single.task))
            self._agents[id(conversation)] = known
        if self.rng.random() < self.failure_rate:
            return GIVE_UP
        message = action_message(known[1].act(None, None))  # type: ignore[arg-type]
        calls = message.get("tool_calls")
        if not calls:
            return str(message["content"])
        function = calls[0]["function"]
        return render_tool_call(function["name"], json.loads(function["arguments"] or "{}"))


def _logprobs(model: Any, ids: list[int], new: list[int]) -> list[float]:
    """Log-probabilities of `new` after `ids` under `model` (one forward pass, no gradient)."""
    import torch

    sequence = torch.tensor([ids + new], device=model.device)
    with torch.no_grad():
        logits = model(sequence).logits[0, len(ids) - 1 : -1].float()
    chosen = torch.log_softmax(logits, dim=-1).gather(1, sequence[0, len(ids) :, None])
    return [float(value) for value in chosen[:, 0]]
