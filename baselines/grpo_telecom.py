"""Train an LLM agent with TRL's GRPO on built-in telecom against the scripted user.

    pip install -e ".[trl]"   # after the torch wheel (CUDA on a GPU machine)
    # GPU: a 0.5-1.5B instruct model, in the evaluation's conversation format (one line)
    python -m tau_env.baselines.grpo_telecom --model Qwen/Qwen2.5-0.5B-Instruct
        --route rollout --generations 8 --batch 16 --steps 200
    # CPU: the training signal, with a scripted stand-in that fails 30% of its turns
    python -m tau_env.baselines.grpo_telecom --route rollout --stand-in 0.3 --steps 2
    # CPU: an offline smoke run of TRL's tool loop with a tiny random model
    python -m tau_env.baselines.grpo_telecom --steps 1

Two routes (README, "Training LLM agents"):

- ``environment`` (default): TRL's own tool loop on the class
  `tau_env.integrations.trl.environment_factory` builds; it generates with vLLM when
  ``--use-vllm`` (colocated on the training GPU), else with the model. Talking to the customer
  is the ``send_message_to_customer`` tool there (TRL's loop ends at plain text).
- ``rollout``: `tau_env.integrations.trl.make_rollout_func` plays each episode in the format
  ``tau-env run --agent llm`` evaluates with (plain text is a message to the customer),
  generating with the model (``model.generate``, a step's episodes in lockstep, one batched
  call per turn), or with `tau_env.baselines.stand_in.StandInPolicy` (``--stand-in RATE``).

Rollouts play built-in telecom ``train`` tasks against the scripted user; a GRPO group (one
task, ``--generations`` rollouts) shares one episode seed (``--group-seeds``). Without
``--model`` a 2-layer model with random weights and a tokenizer trained on the domain's text
are built in-process (no download): they show that the loop runs, not learning. The trained
model is saved to ``--output-dir`` (``tau-env run --agent llm`` evaluates it once served).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from tau_env.utils.extras import MissingExtra, require_extra


def tiny_model_and_tokenizer() -> tuple[Any, Any]:
    """A random 2-layer Qwen2 and a BPE tokenizer trained on telecom's schemas and policy."""
    import tau_env
    from tau_env.testing.tiny_lm import tiny_model, tiny_tokenizer

    domain = tau_env.make_env("telecom").unwrapped.domain
    schemas = json.dumps(domain.toolbox.tools("agent").openai_schemas())
    tokenizer = tiny_tokenizer([schemas, domain.policy], vocab_size=1500)
    return tiny_model(tokenizer), tokenizer


def parse_arguments(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--model", help="Hugging Face model id or folder (default: tiny, random)")
    parser.add_argument("--route", choices=("environment", "rollout"), default="environment")
    parser.add_argument("--use-vllm", action="store_true", help="generate with vLLM (GPU)")
    parser.add_argument(
        "--stand-in",
        type=float,
        default=None,
        metavar="RATE",
        help="rollout route: a scripted stand-in playing the gold plan, failing this share of "
        "its turns, instead of the model's generation (a signal check, not learning)",
    )
    parser.add_argument("--split", default="train", help="telecom task split to train on")
    parser.add_argument("--tasks", type=int, default=64, help="tasks in the dataset")
    parser.add_argument("--steps", type=int, default=10, help="GRPO optimizer steps")
    parser.add_argument("--generations", type=int, default=4, help="rollouts per task (group)")
    parser.add_argument(
        "--batch", type=int, default=None, help="rollouts per step (default: --generations)"
    )
    parser.add_argument("--group-seeds", choices=("shared", "distinct"), default="shared")
    parser.add_argument("--reward", choices=("binary", "partial"), default="binary")
    parser.add_argument("--max-completion-length", type=int, default=1024)
    parser.add_argument("--learning-rate", type=float, default=1e-6)
    parser.add_argument("--seed", type=int, default=0, help="trainer and episode seeds")
    parser.add_argument("--output-dir", default="grpo-telecom")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    """Build the model, the dataset of telecom task ids and the trainer, then train."""
    args = parse_arguments(argv)
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

    if args.stand_in is not None and args.route != "rollout":
        raise SystemExit("--stand-in plays through the rollout route: add --route rollout")
    if args.model:
        from transformers import AutoModelForCausalLM, AutoTokenizer

        model = AutoModelForCausalLM.from_pretrained(args.model, dtype="auto")
        tokenizer = AutoTokenizer.from_pretrained(args.model)
    else:
        model, tokenizer = tiny_model_and_tokenizer()
    gpu = torch.cuda.is_available()
    config = trl.GRPOConfig(
        output_dir=args.output_dir,
        per_device_train_batch_size=args.batch or args.generations,
        num_generations=args.generations,
        max_steps=args.steps,
        max_completion_length=args.max_completion_length,
        learning_rate=args.learning_rate,
        beta=0.0,
        logging_steps=1,
        report_to="none",
        save_strategy="no",
        seed=args.seed,
        use_cpu=not gpu,
        bf16=gpu,
        # Named as transformers names it now (TRL's default sets a deprecated alias); a
        # 0.5-1.5B model's 4-8k-token episodes need it on a 24-80 GB GPU.
        activation_checkpointing=gpu,
        use_vllm=args.use_vllm,
        vllm_mode="colocate",
    )
    trainer = trl.GRPOTrainer(
        model=model, args=config, processing_class=tokenizer, **_route(args, model, tokenizer)
    )
    trainer.train()
    steps = [row for row in trainer.state.log_history if "reward" in row]
    print(f"{trainer.state.global_step} GRPO steps")
    for number, row in enumerate(steps, start=1):
        print(
            f"  step {number}: reward {row['reward']:.3f}, reward_std {row['reward_std']:.3f}, "
            f"grad_norm {float(row.get('grad_norm', 0.0)):.3f}"
        )
    if args.model:
        trainer.save_model(args.output_dir)
        print(f"saved the model to {args.output_dir}")


def _route(args: argparse.Namespace, model: Any, tokenizer: Any) -> dict[str, Any]:
    """The dataset and the rollout arguments of the chosen route."""
    from tau_env.integrations.trl import (
        environment_dataset,
        environment_factory,
        make_rollout_func,
        rollout_dataset,
        tau_reward,
    )

    options = {"user": "scripted", "reward": args.reward, "group_seeds": args.group_seeds}
    if args.route == "environment":
        return {
            "train_dataset": environment_dataset(
                "telecom", split=args.split, limit=args.tasks, seed=args.seed
            ),
            "environment_factory": environment_factory(
                "telecom", group_size=args.generations, **options
            ),
        }
    rollout = make_rollout_func("telecom", seed=args.seed, **options)
    if args.stand_in is not None:
        from tau_env.baselines.stand_in import StandInPolicy

        rollout.generate = StandInPolicy(rollout, failure_rate=args.stand_in, seed=args.seed)
    return {
        "train_dataset": rollout_dataset("telecom", split=args.split, limit=args.tasks),
        "rollout_func": rollout,
        "reward_funcs": tau_reward,
    }


if __name__ == "__main__":
    main()
