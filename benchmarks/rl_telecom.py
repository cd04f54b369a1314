"""RL benchmark: MaskablePPO learns telecom troubleshooting through the featurized view.

``python benchmarks/rl_telecom.py [--out DIR] [--timesteps N] [--seed S]``

1. Speed of the featurized view alone: template steps per second of the manual policy over
   the 420 built-in tasks (env, scripted user, featurizer; no torch).
2. The training run of ``python -m tau_env.baselines.sb3_train`` (train split -> test split),
   with the random template agent, the untrained policy and the manual policy beside it.
   Target: test pass^1 >= 0.9 within 600 CPU-seconds (2-core machine, possibly loaded by
   other work: wall time is reported too).

Writes ``summary.json`` and ``learning_curve.png`` (and ``model.zip``, not committed) to
``--out`` (default ``benchmarks/results/rl_telecom``). Needs the ``rl`` extra.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from tau_env.baselines.rl.evaluate import evaluate
from tau_env.baselines.rl.manual_policy import ManualPolicy
from tau_env.wrappers.rl import make_telecom_featurized_env

REPO = Path(__file__).resolve().parents[1]
TARGET_PASS1 = 0.9
TARGET_CPU_S = 600.0


def view_speed() -> tuple[float, float]:
    """(template steps per second, mean templates per episode) of the manual policy."""
    env = make_telecom_featurized_env(split="base")
    ids = [task.id for task in env.env.aec.tasks]
    policy = ManualPolicy(env.feature_names, env.template_names)
    start = time.process_time()
    evaluation = evaluate(policy, env, ids)
    elapsed = time.process_time() - start
    return evaluation.turns * len(ids) / elapsed, evaluation.turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks/results/rl_telecom")
    parser.add_argument("--timesteps", type=int, default=300_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    from tau_env.baselines.sb3_train import TrainConfig, train

    rate, turns = view_speed()
    print(f"featurized view: {rate:,.0f} template steps/s (CPU), {turns:.1f} templates/episode")
    print(f"load average before training: {os.getloadavg()}")
    out = Path(os.path.relpath(args.out))  # the summary records the path as given
    summary = train(TrainConfig(out=out, timesteps=args.timesteps, seed=args.seed))
    test, timing = summary["test"], summary["time"]
    for name in ("trained", "untrained", "random", "manual"):
        scores = test[name]
        intents = ", ".join(f"{k} {v:.3f}" for k, v in scores["pass1_by_intent"].items())
        print(
            f"{name:>9}: test pass^1 {scores['pass1']:.3f} ({intents}); "
            f"{scores['mean_turns']:.1f} templates/episode"
        )
    print(
        f"training: {summary['timesteps']} steps; train wall {timing['train_wall_s']} s, "
        f"train CPU {timing['train_cpu_s']} s; whole run wall {timing['total_wall_s']} s, "
        f"CPU {timing['total_cpu_s']} s"
    )
    met = test["trained"]["pass1"] >= TARGET_PASS1 and timing["total_cpu_s"] <= TARGET_CPU_S
    print(
        f"target pass^1 >= {TARGET_PASS1} within {TARGET_CPU_S:.0f} CPU-s: "
        f"{'met' if met else 'NOT met'}; figure: {out / 'learning_curve.png'}"
    )


if __name__ == "__main__":
    main()
