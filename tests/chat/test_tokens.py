from __future__ import annotations

import json

import pytest

import tau_env
from tau_env.chat import EpisodeTokens, make_chat_env, tokenize_episode
from tests.chat.conftest import play_oracle
from tests.extras import require

require("transformers", "trl")

from tau_env.testing.tiny_lm import tiny_tokenizer  # noqa: E402


@pytest.fixture(scope="module")
def tokenizer():
    env = tau_env.make_env("telecom").unwrapped
    corpus = [env.domain.policy, json.dumps(env.domain.toolbox.tools("agent").openai_schemas())]
    return tiny_tokenizer(corpus, vocab_size=600)


@pytest.fixture(scope="module")
def episode():
    chat = make_chat_env("telecom", system_prompt=lambda policy: "You are a telecom agent.")
    task_id = tau_env.make_env("telecom").unwrapped.tasks[2].id
    turns = play_oracle(chat, task_id=task_id, seed=1)
    return chat, len(turns[0].messages)


def test_tokenize_episode__model_tokens_are_exactly_the_assistant_turns(tokenizer, episode):
    chat, prompt_length = episode
    tokens = tokenize_episode(tokenizer, chat.messages, chat.tools, prompt_length=prompt_length)
    # The whole sequence is the template's rendering of the episode (up to the final newline).
    whole = tokenizer.apply_chat_template(
        [_template(m) for m in chat.messages], tools=chat.tools, tokenize=False
    )
    assert tokenizer.decode(tokens.prompt_ids + tokens.completion_ids) == whole.rstrip("\n")
    assert len(tokens.loss_mask) == len(tokens.completion_ids)
    # Token by token: the runs of 1s decode to the assistant turns, in order, each ending at EOS.
    model_runs, env_runs = _runs(tokens.completion_ids, tokens.loss_mask)
    assistants = [m for m in chat.messages[prompt_length:] if m["role"] == "assistant"]
    assert len(model_runs) == len(assistants)
    for run, message in zip(model_runs, assistants, strict=True):
        assert run[-1] == tokenizer.eos_token_id
        text = tokenizer.decode(run)
        if message.get("tool_calls"):
            for call in message["tool_calls"]:
                assert f'"name": "{call["function"]["name"]}"' in text
        else:
            assert text == message["content"] + "<|im_end|>"
    # The 0 runs hold every tool result and user reply, and no assistant text.
    others = [m for m in chat.messages[prompt_length:] if m["role"] != "assistant"]
    env_text = "".join(tokenizer.decode(run) for run in env_runs)
    for message in others:
        assert message["content"] in env_text
    assert all(tokenizer.decode(run).startswith("\n<|im_start|>user") for run in env_runs)


def test_episode_tokens__generated_ids_are_kept_verbatim(tokenizer):
    episode = EpisodeTokens(tokenizer)
    prompt = episode.start([{"role": "system", "content": "s"}, {"role": "user", "content": "hi"}])
    assert tokenizer.decode(prompt).endswith("<|im_start|>assistant\n")
    generated = tokenizer.encode("odd   spacing<|im_end|>", add_special_tokens=False)
    episode.add_model_ids(generated, {"role": "assistant", "content": "odd spacing"})
    added = episode.add_environment([{"role": "user", "content": "ok"}])
    result = episode.result()
    assert result.completion_ids[: len(generated)] == generated
    assert result.loss_mask == [1] * len(generated) + [0] * len(added)
    assert tokenizer.decode(added) == "\n<|im_start|>user\nok<|im_end|>\n<|im_start|>assistant\n"


def test_episode_tokens__environment_needs_a_model_turn_first(tokenizer):
    episode = EpisodeTokens(tokenizer)
    episode.start([{"role": "user", "content": "hi"}])
    with pytest.raises(ValueError, match="follow a model turn"):
        episode.add_environment([{"role": "user", "content": "x"}])


def test_tokenize_episode__no_model_turn_is_an_error(tokenizer):
    with pytest.raises(ValueError, match="not an assistant message"):
        tokenize_episode(
            tokenizer, [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}]
        )


def _template(message):
    from tau_env.chat.tokens import template_message

    return template_message(dict(message))


def _runs(ids, mask):
    model, env, current, value = [], [], [], None
    for token, bit in zip(ids, mask, strict=True):
        if bit != value and current:
            (model if value == 1 else env).append(current)
            current = []
        value = bit
        current.append(token)
    if current:
        (model if value == 1 else env).append(current)
    return model, env
