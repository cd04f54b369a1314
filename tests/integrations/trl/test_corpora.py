"""``tau-env export --format sft / preference`` in TRL: the chat route's tokens, one SFT step and
one DPO step on the tests' tiny model (CPU)."""

from __future__ import annotations

import json

import pytest

import tau_env
from tau_env.chat import make_chat_env, tokenize_episode
from tau_env.cli.main import main
from tau_env.rollout_seeds import episode_seed
from tests.chat.conftest import play_oracle
from tests.integrations.trl.conftest import CPU_TRAINING, parameters_changed

# Telecom tasks in which the agent calls tools and the customer runs steps on their phone.
TELECOM = [
    t.id
    for t in tau_env.make_env("telecom").unwrapped.tasks
    if {g.requestor for g in t.gold_actions} == {"assistant", "user"}
][:2]


def _stored(tmp_path, *runs: tuple[str, ...]) -> str:
    store = str(tmp_path / "runs.sqlite")
    for arguments in runs:
        assert main(["run", *arguments, "--store", store, "--no-progress", "--quiet"]) == 0
    return store


def _exported(tmp_path, store: str, *arguments: str):
    import datasets

    out = tmp_path / f"{arguments[1]}.jsonl"
    assert main(["export", "--store", store, *arguments, "--all", "-o", str(out)]) == 0
    return datasets.load_dataset(
        "json", data_files=str(out), split="train", cache_dir=str(tmp_path / "cache")
    )


def test_sft_line__has_the_token_ids_of_the_chat_route(trl, tokenizer, tmp_path):
    """The oracle through ``tau-env run``, exported and loaded with ``datasets``, against the
    same task and seed played through the chat view: `tokenize_episode` gives the same ids and
    loss mask, and the template's rendering of the whole line (what ``SFTTrainer`` tokenizes)
    gives those ids followed only by the template's closing newline."""
    run = ("--domain", "telecom", "--tasks", ",".join(TELECOM), "--agent", "oracle-text")
    lines = _exported(tmp_path, _stored(tmp_path, run), "--format", "sft")
    assert sorted(line["metadata"]["task_id"] for line in lines) == sorted(TELECOM)
    newline = tokenizer.encode("\n", add_special_tokens=False)
    for line in lines:
        task_id = line["metadata"]["task_id"]
        chat = make_chat_env("telecom")
        turns = play_oracle(chat, task_id=task_id, seed=episode_seed(300, task_id, 0))
        last = max(i for i, m in enumerate(chat.messages) if m["role"] == "assistant")
        route = tokenize_episode(
            tokenizer, chat.messages[: last + 1], chat.tools, prompt_length=len(turns[0].messages)
        )

        exported = tokenize_episode(
            tokenizer,
            line["messages"],
            line["tools"],
            prompt_length=line["metadata"]["prompt_length"],
        )
        whole = tokenizer.apply_chat_template(
            line["messages"], tools=line["tools"], tokenize=True, return_dict=False
        )

        assert exported == route
        ids = route.prompt_ids + route.completion_ids
        assert list(whole) == ids + newline
        text = tokenizer.decode(ids)
        assert "<tool_call>" in text and "<tool_response>" in text and task_id not in text


@pytest.fixture(scope="module")
def mock_tokenizer(trl):
    from tau_env.testing.tiny_lm import tiny_tokenizer

    domain = tau_env.make_env("mock").unwrapped.domain
    schemas = json.dumps(domain.toolbox.tools("agent").openai_schemas())
    return tiny_tokenizer([domain.policy, schemas], vocab_size=800)


def _config(trl, cls, tmp_path, **overrides):
    values = {
        "output_dir": str(tmp_path / "out"),
        "per_device_train_batch_size": 2,
        "max_steps": 1,
        "learning_rate": 1e-2,
        "max_length": None,  # (a tiny tokenizer spends thousands of tokens on the policy)
        **CPU_TRAINING,
    }
    return cls(**{**values, **overrides})


@pytest.mark.parametrize("layout", ["messages", "prompt-completion"])
def test_sft_corpus__one_sft_step(trl, mock_tokenizer, tmp_path, layout):
    import torch

    from tau_env.testing.tiny_lm import tiny_model

    store = _stored(tmp_path, ("--domain", "mock", "--agent", "oracle-text", "--trials", "2"))
    corpus = _exported(
        tmp_path, store, "--format", "sft", "--min-reward", "1", "--sft-layout", layout
    )
    assert "metadata" in corpus.column_names
    model = tiny_model(mock_tokenizer)
    before = {name: p.detach().clone() for name, p in model.named_parameters()}
    config = _config(trl, trl.SFTConfig, tmp_path, assistant_only_loss=True)
    trainer = trl.SFTTrainer(
        model=model, args=config, train_dataset=corpus, processing_class=mock_tokenizer
    )

    output = trainer.train()

    assert output.global_step == 1 and torch.isfinite(torch.tensor(output.training_loss))
    assert parameters_changed(before, model)
    # The loss sees the agent's turns alone; in the prompt-completion layout not the greeting.
    row = trainer.train_dataset[0]
    learned = mock_tokenizer.decode(
        [i for i, label in zip(row["input_ids"], row["labels"], strict=True) if label != -100]
    )
    assert "<tool_call>" in learned and "<tool_response>" not in learned
    assert ("How can I help you today?" in learned) == (layout == "messages")


def test_preference_corpus__one_dpo_step(trl, mock_tokenizer, tmp_path):
    import torch

    from tau_env.testing.tiny_lm import tiny_model

    store = _stored(
        tmp_path,
        ("--domain", "mock", "--agent", "oracle-text", "--trials", "2"),
        ("--domain", "mock", "--agent", "random", "--trials", "2"),
    )
    pairs = _exported(tmp_path, store, "--format", "preference")
    assert len(pairs) >= 4 and "metadata" in pairs.column_names
    model = tiny_model(mock_tokenizer)
    before = {name: p.detach().clone() for name, p in model.named_parameters()}
    trainer = trl.DPOTrainer(
        model=model,
        ref_model=tiny_model(mock_tokenizer),
        args=_config(trl, trl.DPOConfig, tmp_path),
        train_dataset=pairs,
        processing_class=mock_tokenizer,
    )

    output = trainer.train()

    assert output.global_step == 1 and torch.isfinite(torch.tensor(output.training_loss))
    assert parameters_changed(before, model)
