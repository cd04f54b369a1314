"""A tiny in-process model whose sampling is scripted, and telecom tasks it can solve.

An untrained tiny model never writes a tool call, so `scripted_model` overrides ``generate``
with a fixed policy on transfer-only telecom tasks (transfer, announce it); the forward pass,
the loss and the optimizer are the real model's. Rows of even index in a batch play it well,
rows of odd index end the conversation at once (reward 0), so every GRPO group has reward
variance and the policy gradient is not zero.
"""

from __future__ import annotations

import json
import os

import pytest

import tau_env
from tests.extras import require

ANNOUNCEMENT = "YOU ARE BEING TRANSFERRED TO A HUMAN AGENT. PLEASE HOLD ON."
SYSTEM = "You are a telecom support agent."


def transfer_tasks(count: int) -> list[str]:
    env = tau_env.make_env("telecom").unwrapped
    ids = [
        t.id for t in env.tasks if [g.name for g in t.gold_actions] == ["transfer_to_human_agents"]
    ]
    return ids[:count]


def call_text(name: str, arguments: dict) -> str:
    return f"<tool_call>\n{json.dumps({'name': name, 'arguments': arguments})}\n</tool_call>"


TRANSFER = call_text("transfer_to_human_agents", {"summary": "Needs a technician."})
GIVE_UP = "Sorry, I cannot help. ###STOP###"


def good_turn(turn: int, *, message_tool: bool) -> str:
    """The well-played episode: transfer, announce the transfer, then say goodbye."""
    if turn == 0:
        return TRANSFER
    if turn == 1:
        return (
            call_text("send_message_to_customer", {"message": ANNOUNCEMENT})
            if message_tool
            else ANNOUNCEMENT
        )
    return "Goodbye."


@pytest.fixture(scope="session")
def trl():
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    require("datasets", "trl")
    return require("trl", "trl")


@pytest.fixture(scope="session")
def tokenizer(trl):
    from tau_env.testing.tiny_lm import tiny_tokenizer

    env = tau_env.make_env("telecom").unwrapped
    schemas = json.dumps(env.domain.toolbox.tools("agent").openai_schemas())
    corpus = [schemas] * 3 + [env.domain.policy, TRANSFER, ANNOUNCEMENT]
    return tiny_tokenizer(corpus, vocab_size=1500)


def scripted_model(tokenizer, *, message_tool: bool):
    """A tiny Qwen2 whose ``generate`` follows the script (turn = tool results seen so far)."""
    import torch

    from tau_env.testing.tiny_lm import tiny_model

    model = tiny_model(tokenizer)
    base = type(model)

    class Scripted(base):
        def generate(self, input_ids=None, attention_mask=None, **kwargs):
            rows = []
            for index, row in enumerate(input_ids.tolist()):
                text = tokenizer.decode(row, skip_special_tokens=False)
                turn = text.count("<tool_response>")
                if turn == 0 and index % 2 == 1:
                    reply = GIVE_UP
                else:
                    reply = good_turn(turn, message_tool=message_tool)
                ids = [*tokenizer.encode(reply, add_special_tokens=False), tokenizer.eos_token_id]
                rows.append(ids)
            width = max(len(r) for r in rows)
            padded = [r + [tokenizer.pad_token_id] * (width - len(r)) for r in rows]
            return torch.cat([input_ids, torch.tensor(padded, dtype=input_ids.dtype)], dim=1)

    model.__class__ = Scripted
    return model


CPU_TRAINING = {
    "report_to": "none",
    "save_strategy": "no",
    "use_cpu": True,
    "bf16": False,
    "seed": 0,
    "dataloader_num_workers": 0,
    # Set by its own name: TRL's default sets the deprecated `gradient_checkpointing`
    # (transformers then warns); a 2-layer model needs no checkpointing.
    "activation_checkpointing": False,
}
"""Trainer settings of every test: CPU, no saving, no reporting, seeded."""


def grpo_config(tmp_path, trl, **overrides):
    values = {
        "output_dir": str(tmp_path / "out"),
        "per_device_train_batch_size": 4,
        "num_generations": 2,
        "max_steps": 2,
        "learning_rate": 5e-2,
        "beta": 0.0,
        "max_completion_length": 192,
        "logging_steps": 1,
        **CPU_TRAINING,
    }
    values.update(overrides)
    return trl.GRPOConfig(**values)


def parameters_changed(before, model) -> list[str]:
    import torch

    return [
        name for name, p in model.named_parameters() if not torch.equal(before[name], p.detach())
    ]
