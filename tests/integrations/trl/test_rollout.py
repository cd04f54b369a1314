from __future__ import annotations

import pytest

from tests.integrations.trl.conftest import (
    ANNOUNCEMENT,
    GIVE_UP,
    SYSTEM,
    TRANSFER,
    good_turn,
    grpo_config,
    parameters_changed,
    transfer_tasks,
)


def scripted_generate(tokenizer):
    """Text-level script: even episodes transfer and announce, odd ones give up at once."""
    episodes = {"count": 0}

    def generate(trainer, ids):
        text = tokenizer.decode(ids, skip_special_tokens=False)
        turn = text.count("<tool_response>")
        if turn == 0:
            episodes["count"] += 1
        bad = turn == 0 and episodes["count"] % 2 == 0
        reply = GIVE_UP if bad else good_turn(turn, message_tool=False)
        new = [*tokenizer.encode(reply, add_special_tokens=False), tokenizer.eos_token_id]
        return new, [-1.0] * len(new)

    return generate


def test_grpo__two_optimizer_steps_through_rollout_func(tmp_path, trl, tokenizer):
    from tau_env.integrations.trl import make_rollout_func, rollout_dataset, tau_reward
    from tau_env.testing.tiny_lm import tiny_model

    model = tiny_model(tokenizer)
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    rollout = make_rollout_func(
        "telecom", system_prompt=lambda policy: SYSTEM, generate=scripted_generate(tokenizer)
    )
    outputs, rewards_seen = [], []

    def recorded(prompts, trainer):
        out = rollout(prompts, trainer)
        outputs.append((prompts, out))
        return out

    def reward(completions, **kwargs):
        rewards = tau_reward(completions, **kwargs)
        rewards_seen.extend(rewards)
        return rewards

    trainer = trl.GRPOTrainer(
        model=model,
        reward_funcs=reward,
        args=grpo_config(tmp_path, trl),
        train_dataset=rollout_dataset("telecom", only=transfer_tasks(4)),
        processing_class=tokenizer,
        rollout_func=recorded,
    )
    trainer.train()
    assert trainer.state.global_step == 2
    assert parameters_changed(before, model)
    episodes = [
        (prompt, *values)
        for prompts, out in outputs
        for prompt, *values in zip(
            prompts,
            out["prompt_ids"],
            out["completion_ids"],
            out["env_mask"],
            out["logprobs"],
            out["tau_reward"],
            out["tau_tool_calls"],
            out["tau_finished"],
            strict=True,
        )
    ]
    assert len(episodes) == 8  # prompts arrive repeated num_generations times
    assert sorted(rewards_seen) == sorted(e[5] for e in episodes)  # rewards read from the env
    assert {e[5] for e in episodes} == {0.0, 1.0}
    for _, _, completion, mask, logprobs, reward, tool_calls, finished in episodes:
        assert finished
        assert len(completion) == len(mask) == len(logprobs)
        assert (reward, tool_calls) in {(1.0, 1), (0.0, 0)}  # the transfer ran in the env


def test_rollout_func__loss_mask_token_by_token(tokenizer):
    from tau_env.chat import make_chat_env
    from tau_env.integrations.trl import ROLLOUT_KEY, make_rollout_func

    class Trainer:  # what the rollout function reads from the trainer
        processing_class = tokenizer
        max_completion_length = 1000

    task_id = transfer_tasks(1)[0]
    rollout = make_rollout_func(
        "telecom", system_prompt=lambda policy: SYSTEM, generate=scripted_generate(tokenizer)
    )
    out = rollout([[{"role": "user", "content": ROLLOUT_KEY + task_id}]], Trainer())
    prompt, completion, mask = out["prompt_ids"][0], out["completion_ids"][0], out["env_mask"][0]
    assert out["tau_reward"] == [1.0]
    # The prompt is the template's rendering of the chat before the model's first turn.
    chat = make_chat_env("telecom", system_prompt=lambda policy: SYSTEM)
    opening = chat.reset(task_id=task_id, seed=out["tau_seed"][0]).messages
    assert prompt == tokenizer.apply_chat_template(
        opening, tools=chat.tools, add_generation_prompt=True, tokenize=True, return_dict=False
    )
    encode = lambda text: tokenizer.encode(text, add_special_tokens=False)  # noqa: E731
    eos = [tokenizer.eos_token_id]
    turn1 = encode(TRANSFER) + eos
    env = encode(
        "\n<|im_start|>user\n<tool_response>\nTransfer successful\n</tool_response><|im_end|>\n"
        "<|im_start|>assistant\n"
    )
    turn2 = encode(ANNOUNCEMENT) + eos
    assert completion == turn1 + env + turn2
    assert mask == [1] * len(turn1) + [0] * len(env) + [1] * len(turn2)


def test_task_id_of__rejects_prompts_that_are_not_keys():
    from tau_env.integrations.trl.rollout import task_id_of

    with pytest.raises(ValueError, match="rollout prompt"):
        task_id_of([{"role": "user", "content": "hello"}])


def test_model_generate__samples_from_the_model_and_stops_at_eos(tokenizer):
    from tau_env.integrations.trl.rollout import _model_generate
    from tau_env.testing.tiny_lm import tiny_model

    class Trainer:
        model = tiny_model(tokenizer)
        processing_class = tokenizer
        temperature = 1.0

    ids = tokenizer.encode("hello", add_special_tokens=False)
    new, logprobs = _model_generate(6)(Trainer(), ids)
    assert 1 <= len(new) <= 6 and len(logprobs) == len(new)
    assert all(p <= 0.0 for p in logprobs)
    assert tokenizer.eos_token_id not in new[:-1]


def test_model_generate__a_batch_in_one_call_with_each_rows_own_logprobs(tokenizer):
    """Left-padded rows of different lengths: each row's logprobs are those of its tokens after
    its own ids (as an unpadded forward pass gives them)."""
    import torch

    from tau_env.integrations.trl.generation import ModelGenerate
    from tau_env.testing.tiny_lm import tiny_model

    class Trainer:
        model = tiny_model(tokenizer)
        processing_class = tokenizer
        temperature = 1.0

    batch = [tokenizer.encode(text, add_special_tokens=False) for text in ("hi", "a longer row")]
    turns = ModelGenerate(5).many(Trainer(), batch)
    assert len(turns) == 2
    for ids, (new, logprobs) in zip(batch, turns, strict=True):
        assert 1 <= len(new) <= 5 and len(logprobs) == len(new)
        with torch.no_grad():
            logits = Trainer.model(torch.tensor([ids + new])).logits[0, len(ids) - 1 : -1]
        expected = torch.log_softmax(logits.float(), -1).gather(1, torch.tensor(new)[:, None])
        assert torch.allclose(torch.tensor(logprobs), expected[:, 0], atol=1e-4)


def failing_judge(trajectory, assertions):
    from tau_env.errors import JudgeError

    raise JudgeError("judge unreachable")


def mock_oracle(data_dir, tokenizer, **options):
    """A rollout function on mock whose turns are the plain-text oracle's, and a trainer."""
    import json

    import tau_env
    from tau_env.baselines.oracle import PlainTextOracleAgent
    from tau_env.chat import action_message, render_tool_call
    from tau_env.integrations.trl import make_rollout_func

    domain = tau_env.load_domain("mock", data_dir)
    oracles: dict = {}

    def generate(trainer, ids):  # the oracle of the episode a turn is sampled for
        chat = rollout.chat
        if chat not in oracles or len(chat.messages) == 3:
            oracles[chat] = PlainTextOracleAgent(domain.task(chat.task_id))
        message = action_message(oracles[chat].act(None, None))
        calls = message.get("tool_calls")
        if calls:
            function = calls[0]["function"]
            text = render_tool_call(function["name"], json.loads(function["arguments"]))
        else:
            text = message["content"]
        new = [*tokenizer.encode(text, add_special_tokens=False), tokenizer.eos_token_id]
        return new, [0.0] * len(new)

    rollout = make_rollout_func("mock", data_dir=str(data_dir), generate=generate, **options)
    return rollout


def test_rollout_func__a_judge_failure_marks_its_rollout_and_the_batch_goes_on(trl, nl_mock_dir):
    """One batch: the NL-judged task (its judge fails) and a task with no NL assertion. The
    first comes back unscored, out of the loss and counted; the second as if alone."""
    from tau_env.integrations.trl import ROLLOUT_KEY, tau_reward
    from tau_env.testing.tiny_lm import tiny_tokenizer
    from tests.conftest import NL_TASK

    tokenizer = tiny_tokenizer(["mock tasks"], vocab_size=300)
    rollout = mock_oracle(nl_mock_dir, tokenizer, judge=failing_judge)

    class Trainer:
        processing_class = tokenizer
        max_completion_length = 1 << 20

    prompts = [[{"role": "user", "content": ROLLOUT_KEY + t}] for t in (NL_TASK, "complete_task")]
    with pytest.warns(UserWarning, match=r"NL judge did not rule.*\(1 so far in this process\)"):
        out = rollout(prompts, Trainer())
    assert out["tau_finished"] == [True, True]
    assert out["tau_judge_failed"] == [True, False]
    assert out["tau_reward"] == [None, 1.0]
    assert out["tau_breakdown"][0] == {}
    failed, scored = out["env_mask"]
    assert failed and set(failed) == {0}  # none of its tokens is in the loss
    assert 1 in scored and len(failed) == len(out["completion_ids"][0])
    logged = []
    rewards = tau_reward(
        [None, None],
        out["tau_reward"],
        tau_judge_failed=out["tau_judge_failed"],
        log_metric=lambda name, value: logged.append((name, value)),
    )
    assert rewards == [None, 1.0]
    assert logged == [("tau_env/judge_failed", 0.5)]


@pytest.mark.filterwarnings("ignore:tau_env. task create_task .seed")
def test_grpo__trains_through_a_judge_failure(tmp_path, trl, nl_mock_dir):
    """A GRPO step whose batch holds a group whose judge fails: the step is taken, the share
    of such rollouts is logged, and they get advantage 0 (TRL's rule for rows every reward
    function left None)."""
    from tau_env.integrations.trl import rollout_dataset, tau_reward
    from tau_env.testing.tiny_lm import tiny_model, tiny_tokenizer
    from tests.conftest import NL_TASK

    tokenizer = tiny_tokenizer(["mock tasks"], vocab_size=300)
    rollout = mock_oracle(nl_mock_dir, tokenizer, judge=failing_judge)
    dataset = rollout_dataset(
        "mock", data_dir=str(nl_mock_dir), only=[NL_TASK, "complete_task"], judged=True
    )
    trainer = trl.GRPOTrainer(
        model=tiny_model(tokenizer),
        reward_funcs=tau_reward,
        args=grpo_config(tmp_path, trl, max_steps=1, max_completion_length=512),
        train_dataset=dataset,
        processing_class=tokenizer,
        rollout_func=rollout,
    )
    trainer.train()
    assert trainer.state.global_step == 1
    (logged,) = [row for row in trainer.state.log_history if "tau_env/judge_failed" in row]
    assert logged["tau_env/judge_failed"] == 0.5
    advantages = trainer._logs["advantages"]  # TRL's own per-rollout log
    rewards = trainer._logs["rewards"]["tau_reward"]
    assert len(advantages) == len(rewards) == 4
    for reward, advantage in zip(rewards, advantages, strict=True):
        if reward != reward:  # NaN: the failed judge's rollouts
            assert advantage == 0.0
