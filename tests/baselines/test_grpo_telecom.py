"""The GRPO telecom baseline runs as ``python -m tau_env.baselines.grpo_telecom``."""

from __future__ import annotations

import subprocess
import sys


def test_grpo_telecom__runs_as_a_module_of_the_installed_package():
    result = subprocess.run(
        [sys.executable, "-m", "tau_env.baselines.grpo_telecom", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "--model" in result.stdout and "--steps" in result.stdout


def test_grpo_telecom__import_loads_no_training_stack():
    code = (
        "import sys, tau_env.baselines.grpo_telecom\n"
        "print(sorted(m for m in ('torch', 'trl', 'transformers') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_grpo_step__a_stand_in_with_failures_gives_reward_variance_and_a_gradient(tmp_path):
    """On CPU, the loop's signal: a scripted stand-in (the gold plan, giving up at 30% of its
    turns) makes groups whose rewards differ, and the step's gradient is not zero."""
    import os

    from tests.extras import require

    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    require("datasets", "trl")
    trl = require("trl", "trl")
    from tau_env.baselines.grpo_telecom import tiny_model_and_tokenizer
    from tau_env.baselines.stand_in import StandInPolicy
    from tau_env.integrations.trl import make_rollout_func, rollout_dataset, tau_reward
    from tau_env.testing.tiny_lm import tiny_model
    from tests.integrations.trl.conftest import grpo_config, transfer_tasks

    _, tokenizer = tiny_model_and_tokenizer()
    model = tiny_model(tokenizer)
    rollout = make_rollout_func("telecom", system_prompt=lambda policy: "You are an agent.")
    rollout.generate = StandInPolicy(rollout, failure_rate=0.3, seed=0)
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    trainer = trl.GRPOTrainer(
        model=model,
        reward_funcs=tau_reward,
        args=grpo_config(
            tmp_path, trl, max_steps=1, per_device_train_batch_size=8, num_generations=4
        ),
        train_dataset=rollout_dataset("telecom", only=transfer_tasks(2)),
        processing_class=tokenizer,
        rollout_func=rollout,
    )
    trainer.train()
    (step,) = [row for row in trainer.state.log_history if "reward_std" in row]
    assert step["reward_std"] > 0
    assert step["grad_norm"] > 0
    assert any(not p.equal(before[n]) for n, p in model.named_parameters())
