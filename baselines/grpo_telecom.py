"""Train an LLM agent with TRL's GRPO on built-in telecom against the scripted user.

    pip install -e ".[trl]"   # after the CPU (or CUDA) torch wheel
    python -m tau_env.baselines.grpo_telecom --model path/to/Qwen2.5-0.5B-Instruct --steps 50
    python -m tau_env.baselines.grpo_telecom --steps 1   # offline smoke run, tiny model

Each rollout is a real tau_env episode: TRL instantiates the class that
`tau_env.integrations.trl.environment_factory` builds, calls ``reset`` with the dataset row's
task id, runs the model's tool calls against the domain's tools (plus
``send_message_to_customer``, whose return value is the scripted user's reply) and rewards the
completion with ``get_reward``, the grade of the episode. Without ``--model`` a 2-layer model
with random weights and a tokenizer trained on the domain's text are built in-process (no
download): it shows the loop runs end to end, it will not learn to solve tasks.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from tau_env.utils.extras import MissingExtra, require_extra


def tiny_model_and_tokenizer() -> tuple[object, object]:
    """A random 2-layer Qwen2 and a BPE tokenizer trained on telecom's schemas and policy."""
    import tau_env
    from tau_env.testing.tiny_lm import tiny_model, tiny_tokenizer

    domain = tau_env.make_env("telecom").unwrapped.domain
    schemas = json.dumps(domain.toolbox.tools("agent").openai_schemas())
    tokenizer = tiny_tokenizer([schemas, domain.policy], vocab_size=1500)
    return tiny_model(tokenizer), tokenizer


def main() -> None:
    """Build the model, the dataset of telecom task ids and the trainer, then train."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", help="a local Hugging Face model folder (default: tiny)")
    parser.add_argument("--split", default="train", help="telecom task split to train on")
    parser.add_argument("--tasks", type=int, default=64, help="tasks in the dataset")
    parser.add_argument("--steps", type=int, default=10, help="GRPO optimizer steps")
    parser.add_argument("--generations", type=int, default=4, help="rollouts per task")
    parser.add_argument("--max-completion-length", type=int, default=1024)
    parser.add_argument("--output-dir", default="grpo-telecom")
    args = parser.parse_args()
    try:
        require_extra(
            "trl",
            "torch",
            "trl",
            "transformers",
            "datasets",
            feature="tau_env.baselines.grpo_telecom",
        )
    except MissingExtra as missing:
        print(f"error: {missing}", file=sys.stderr)
        raise SystemExit(2) from None
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")

    import torch
    import trl

    from tau_env.integrations.trl import environment_dataset, environment_factory

    if args.model:
        from transformers import AutoModelForCausalLM, AutoTokenizer

        model = AutoModelForCausalLM.from_pretrained(args.model)
        tokenizer = AutoTokenizer.from_pretrained(args.model)
    else:
        model, tokenizer = tiny_model_and_tokenizer()
    dataset = environment_dataset("telecom", split=args.split, limit=args.tasks)
    config = trl.GRPOConfig(
        output_dir=args.output_dir,
        per_device_train_batch_size=args.generations,
        num_generations=args.generations,
        max_steps=args.steps,
        max_completion_length=args.max_completion_length,
        logging_steps=1,
        report_to="none",
        save_strategy="no",
        use_cpu=not torch.cuda.is_available(),
        bf16=torch.cuda.is_available(),
    )
    trainer = trl.GRPOTrainer(
        model=model,
        args=config,
        train_dataset=dataset,
        processing_class=tokenizer,
        environment_factory=environment_factory("telecom", user="scripted"),
    )
    trainer.train()
    rewards = [row["reward"] for row in trainer.state.log_history if "reward" in row]
    print(f"{trainer.state.global_step} GRPO steps; mean reward per step: {rewards}")


if __name__ == "__main__":
    main()
