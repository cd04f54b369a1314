"""A tiny causal language model and tokenizer built in-process, for tests and smoke runs.

Nothing is downloaded: the tokenizer is a byte-level BPE trained on the texts given (a domain's
policy and tool schemas make a fitting corpus), wrapped as a `PreTrainedTokenizerFast` with the
Qwen-2.5 chat template that TRL ships (so TRL recognises it as a tool-calling template); the
model is a 2-layer Qwen2 of a few hundred thousand parameters with random weights.

Requires the ``trl`` extra (transformers, tokenizers, torch, trl).
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import resources
from typing import Any

__all__ = ["SPECIAL_TOKENS", "qwen_chat_template", "tiny_model", "tiny_tokenizer"]

SPECIAL_TOKENS: tuple[str, ...] = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")
"""Pad/unknown, turn start and end-of-turn (the EOS) tokens of the Qwen-2.5 template."""


def qwen_chat_template() -> str:
    """TRL's Qwen-2.5 chat template (read from the installed trl package)."""
    return (resources.files("trl") / "chat_templates" / "qwen2_5.jinja").read_text()


def tiny_tokenizer(corpus: Iterable[str], *, vocab_size: int = 1024) -> Any:
    """A byte-level BPE tokenizer trained on `corpus`, with the Qwen-2.5 chat template.

    Tool-calling markup (``<tool_call>`` ...) gets single tokens; any text encodes (byte
    fallback), so nothing is ever unknown.
    """
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    markup = ["<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>"]
    backend = Tokenizer(models.BPE())
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    backend.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=[*SPECIAL_TOKENS, *markup],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    backend.train_from_iterator(list(corpus), trainer=trainer)
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=backend,
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
        unk_token="<|endoftext|>",
        additional_special_tokens=[SPECIAL_TOKENS[1]],
    )
    tokenizer.chat_template = qwen_chat_template()
    tokenizer.padding_side = "left"
    return tokenizer


def tiny_model(tokenizer: Any, *, seed: int = 0, max_positions: int = 16384) -> Any:
    """A 2-layer Qwen2 causal LM sized for `tokenizer`, with seeded random weights."""
    import torch
    from transformers import AutoModelForCausalLM, Qwen2Config

    config = Qwen2Config(
        vocab_size=len(tokenizer),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=max_positions,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=None,
        tie_word_embeddings=True,
    )
    torch.manual_seed(seed)
    model = AutoModelForCausalLM.from_config(config)
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    return model
