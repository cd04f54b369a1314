"""Generalisation gap: MaskablePPO trained on a generated set's ``train``, scored on its splits.

``python benchmarks/generalisation.py --domain retail --data-dir DIR --runs R0 R1 R2
[--out DIR] [--style paraphrase]``

1. The set is a ``tau-env generate`` folder with held-out splits (``--hold-out-families``,
   ``--hold-out-world``, ``--hold-out-compositions``); the runs are
   ``python -m tau_env.baselines.sb3_train --data-dir DIR --eval-splits ...`` folders, one per
   seed (their ``summary.json`` grids hold pass^1 per split).
2. Beside them, on the same splits and user style, the view's baselines: the mask-order rule
   and the other trivial heuristics (`tau_env.baselines.rl.desk_heuristics`), the manual
   policy (`DeskPolicy`, features only) and the random template agent (seeds 0-2), with the
   scripted user seeded 0 (the trained policies play with their training seed's users).
3. Each saved model (``model.zip``) played on every split of the set, with the users of its
   training seed: pass^1 per split and per family of each held-out split (which families the
   gap comes from), beside the manual policy's.
4. ``summary.json`` and ``table.md`` in ``--out`` (default
   ``benchmarks/results/generalisation/<domain>/``): mean +- std over seeds per split, and the
   gap ``train - split``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rl_benchmark import mean_std

from tau_env.baselines.rl.desk_heuristics import desk_trivial_policies
from tau_env.baselines.rl.desk_manual import DeskPolicy
from tau_env.baselines.rl.evaluate import evaluate, random_policy
from tau_env.wrappers.rl import FeaturizedEnv, make_featurized_env

REPO = Path(__file__).resolve().parents[1]
HELD_OUT = ("test", "test_family", "test_world", "test_compositional")
HEURISTICS = (
    "mask_order",
    "transfer_at_once",
    "look_up_then_refuse",
    "look_up_then_tell",
    "look_up_then_transfer",
)


def _view(args: argparse.Namespace, split: str, user_seed: int = 0) -> FeaturizedEnv:
    return make_featurized_env(
        args.domain, split=split, style=args.style, user_seed=user_seed, data_dir=args.data_dir
    )


def _families(env: FeaturizedEnv) -> dict[str, str]:
    return {task.id: str(task.family) for task in env.env.aec.tasks}


def _per_family(
    rewards: Mapping[str, Sequence[float]], family: Mapping[str, str]
) -> dict[str, float]:
    groups: dict[str, list[float]] = {}
    for task_id, values in rewards.items():
        groups.setdefault(family[task_id], []).append(float(values[0] == 1.0))
    return {name: sum(v) / len(v) for name, v in sorted(groups.items())}


def baselines(args: argparse.Namespace, splits: Sequence[str]) -> dict[str, Any]:
    """pass^1 of every baseline on every split, and the manual policy per family."""
    found: dict[str, Any] = {"heuristics": {}, "manual": {}, "random": {}, "manual_by_family": {}}
    for split in splits:
        env = _view(args, split)
        ids = [task.id for task in env.env.aec.tasks]
        trivial = desk_trivial_policies(env.feature_names, env.template_names)
        for name in HEURISTICS:
            score = evaluate(trivial[name], env, ids).pass_hat(1)
            found["heuristics"].setdefault(name, {})[split] = score
        manual = evaluate(DeskPolicy(env.feature_names, env.template_names), env, ids)
        found["manual"][split] = manual.pass_hat(1)
        found["manual_by_family"][split] = _per_family(manual.rewards, _families(env))
        randoms = [evaluate(random_policy(s), env, ids).pass_hat(1) for s in (0, 1, 2)]
        found["random"][split] = mean_std(randoms)
        found.setdefault("tasks", {})[split] = len(ids)
        print(
            f"{split}: {len(ids)} tasks, mask_order {found['heuristics']['mask_order'][split]:.3f}"
        )
    return found


def trained(
    args: argparse.Namespace, runs: Sequence[Path], splits: Sequence[str]
) -> dict[str, Any]:
    """Each saved model played on every split of the set: pass^1 per split (mean +- std over
    the runs), the gap to train, and per family of each held-out split.

    Each model plays with the users its training used (user seed = its seed). The runs'
    own ``summary.json`` grids are kept beside (``grid_pass1``): they are the same figures
    when the run was scored on this very set.
    """
    import torch
    from sb3_contrib import MaskablePPO

    from tau_env.baselines.sb3_train import greedy_policy

    torch.set_num_threads(1)
    scores: dict[str, list[float]] = {split: [] for split in splits}
    by_family: dict[str, dict[str, list[float]]] = {}
    found_runs = []
    for run in runs:
        summary = json.loads((run / "summary.json").read_text())
        model = MaskablePPO.load(run / "model.zip", device="cpu")
        pass1 = {}
        for split in splits:
            env = _view(args, split, user_seed=summary["config"]["seed"])
            rewards = evaluate(greedy_policy(model), env, [t.id for t in env.env.aec.tasks])
            pass1[split] = rewards.pass_hat(1)
            scores[split].append(pass1[split])
            if split != "train":
                for name, score in _per_family(rewards.rewards, _families(env)).items():
                    by_family.setdefault(split, {}).setdefault(name, []).append(score)
        found_runs.append(
            {
                "run": str(run),
                "seed": summary["config"]["seed"],
                "timesteps": summary["timesteps"],
                "train_cpu_s": summary["time"]["train_cpu_s"],
                "train_wall_s": summary["time"]["train_wall_s"],
                "train_tasks": summary["train_tasks"],
                "command": summary["command"],
                "pass1": pass1,
                "grid_pass1": {cell: v["pass1"] for cell, v in summary["grid"].items()},
            }
        )
        print(f"{run}: " + ", ".join(f"{k} {v:.3f}" for k, v in pass1.items()))
    return {
        "per_split": {split: mean_std(values) for split, values in scores.items()},
        "gap_to_train": {
            split: mean_std([t - v for t, v in zip(scores["train"], values, strict=True)])
            for split, values in scores.items()
            if split != "train"
        },
        "by_family": {
            split: {name: mean_std(values) for name, values in families.items()}
            for split, families in by_family.items()
        },
        "runs": found_runs,
    }


def table(summary: Mapping[str, Any]) -> str:
    """The results as Markdown: one row per player, one column per split."""
    splits = summary["splits"]
    base = summary["baselines"]
    lines = [
        f"# Generalisation gap: {summary['domain']} ({summary['style']} users, pass^1)",
        "",
        f"Set: `{summary['data_dir']}` ({summary['manifest']}).",
        "",
        "| player | " + " | ".join(f"{s} ({base['tasks'][s]})" for s in splits) + " |",
        "|---|" + "---|" * len(splits),
    ]
    if "trained" in summary:
        per = summary["trained"]["per_split"]
        n = len(summary["trained"]["runs"])
        row = " | ".join(f"{per[s]['mean']:.3f} ± {per[s]['std']:.3f}" for s in splits)
        lines.append(f"| MaskablePPO ({n} seeds) | {row} |")
        gap = summary["trained"]["gap_to_train"]
        cells = ["-"] + [f"{gap[s]['mean']:+.3f} ± {gap[s]['std']:.3f}" for s in splits[1:]]
        lines.append(f"| MaskablePPO gap (train - split) | {' | '.join(cells)} |")
    for name in HEURISTICS:
        row = " | ".join(f"{base['heuristics'][name][s]:.3f}" for s in splits)
        lines.append(f"| {name} | {row} |")
    row = " | ".join(f"{base['manual'][s]:.3f}" for s in splits)
    lines.append(f"| manual policy | {row} |")
    row = " | ".join(f"{base['random'][s]['mean']:.3f}" for s in splits)
    lines.append(f"| random (3 seeds) | {row} |")
    if "trained" in summary:
        lines += ["", "## Per family (MaskablePPO mean over seeds; manual policy)", ""]
        for split, families in summary["trained"]["by_family"].items():
            manual = base["manual_by_family"][split]
            cells = ", ".join(
                f"{name} {score['mean']:.2f} ({manual[name]:.2f})"
                for name, score in families.items()
            )
            lines.append(f"- {split}: {cells}")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Score the baselines (and the runs) on the set's splits; write summary.json, table.md."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domain", default="retail")
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--runs", nargs="*", type=Path, default=[])
    parser.add_argument("--style", default="paraphrase")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    out = args.out or REPO / "benchmarks" / "results" / "generalisation" / args.domain
    out.mkdir(parents=True, exist_ok=True)
    folder = Path(args.data_dir) / "domains" / args.domain
    manifest = json.loads((folder / "manifest.json").read_text())
    splits = ["train", *(s for s in HELD_OUT if s in manifest["splits"])]
    start = time.process_time()
    summary: dict[str, Any] = {
        "domain": args.domain,
        "data_dir": args.data_dir,
        "manifest": f"seed {manifest['seed']}, {manifest['tasks']} tasks, request "
        + json.dumps({k: v for k, v in manifest["request"].items() if v}),
        "splits": splits,
        "split_sizes": {s: manifest["splits"][s] for s in splits},
        "style": args.style,
        "baselines": baselines(args, splits),
    }
    if args.runs:
        summary["trained"] = trained(args, args.runs, splits)
    summary["cpu_s"] = round(time.process_time() - start, 1)
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    (out / "table.md").write_text(table(summary))
    print(table(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
