"""Sampling model turns for the ``rollout_func`` with Hugging Face ``generate``, batched.

`ModelGenerate` samples one turn for each of a batch of episodes at once (left-padded, one
``model.generate`` call) with the trainer's sampling settings (temperature, top-p, top-k,
min-p; the model's own generation defaults are not applied), stopping each at the tokenizer's
EOS, and returns the sampled ids with their log-probabilities: log-softmax of the model's logits
divided by the temperature, as TRL computes a policy's log-probabilities. The rollout function
plays a batch's episodes in lockstep, so every turn of the batch is one call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tau_env.utils.extras import require_extra

__all__ = ["ModelGenerate"]


class ModelGenerate:
    """``generate`` for a `tau_env.integrations.trl.TauRollout`: the trainer's model samples.

    Args:
        max_new_tokens: Tokens per turn at most.
    """

    def __init__(self, max_new_tokens: int) -> None:
        self.max_new_tokens = max_new_tokens

    def __call__(self, trainer: Any, ids: list[int]) -> tuple[list[int], list[float]]:
        """One turn after `ids`: its ids (through EOS) and their log-probabilities."""
        return self.many(trainer, [ids])[0]

    def many(self, trainer: Any, batch: Sequence[list[int]]) -> list[tuple[list[int], list[float]]]:
        """One turn after each sequence of `batch`, in one ``generate`` call."""
        require_extra("trl", "torch", feature="tau_env.integrations.trl")
        import torch

        model = trainer.model
        tokenizer = trainer.processing_class
        pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
        width = max(len(ids) for ids in batch)
        rows = [[pad] * (width - len(ids)) + list(ids) for ids in batch]
        mask = [[0] * (width - len(ids)) + [1] * len(ids) for ids in batch]
        inputs = torch.tensor(rows, device=model.device)
        temperature = float(getattr(trainer, "temperature", 1.0) or 1.0)
        with torch.no_grad():
            out = model.generate(
                inputs,
                attention_mask=torch.tensor(mask, device=model.device),
                max_new_tokens=self.max_new_tokens,
                do_sample=True,
                temperature=temperature,
                top_p=float(getattr(trainer, "top_p", None) or 1.0),
                top_k=int(getattr(trainer, "top_k", None) or 0),
                min_p=getattr(trainer, "min_p", None),
                eos_token_id=tokenizer.eos_token_id,
                pad_token_id=pad,
                output_logits=True,
                return_dict_in_generate=True,
            )
            # (steps, batch, vocab) -> the log-probability of each row's sampled token
            logits = torch.stack(out.logits, dim=1).float() / temperature
            sampled = out.sequences[:, width:]
            chosen = torch.log_softmax(logits, dim=-1).gather(2, sampled[..., None])[..., 0]
        turns = []
        for row in range(len(batch)):
            new = [int(i) for i in sampled[row].tolist()]
            logprobs = [float(p) for p in chosen[row, : len(new)].tolist()]
            if tokenizer.eos_token_id in new:  # it stops at EOS; the rest is padding
                end = new.index(tokenizer.eos_token_id) + 1
                new, logprobs = new[:end], logprobs[:end]
            turns.append((new, logprobs))
        return turns
