"""``tau-env generate``: write a fresh, verified task set in the official folder layout.

Draws a world and tasks with the domain's own generator (airline, retail, telecom or
banking_knowledge), removes duplicates (same family, starting state, gold plan and checks),
keeps every family's share of each split, verifies every task by gold replay (the oracle agent
and the gold user must reach reward 1.0), and writes the set to OUT/domains/DOMAIN/ with a
manifest.json (generator version, seed, families, counts, difficulty levels, content hash).
Play it with `tau-env run --data-dir OUT`; `make_env(DOMAIN, data_dir=OUT)` loads it.

The same arguments give the same bytes. The set appears whole or not at all: it is written
and verified in a hidden folder inside OUT, then renamed into place. Each task's measured
difficulty (gold plan length, user steps, look-ups, distractor records...) is kept in its
description, which no participant sees; --difficulty keeps some levels only.

Held-out splits by structure: --hold-out-families (test_family), --hold-out-world (airline,
retail: test_world, customers no train task names) and --hold-out-compositions (telecom,
retail: test_compositional, sub-goals train has only apart).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tau_env.cli.common import documented_parser

__all__ = ["add_parser"]

_SUMMARY = "write a fresh task set of any size, every task verified by gold replay"


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


DEFAULT_AUDIT_SAMPLE = 20
"""Tasks of each family ``--audit-sample`` audits unless told."""


def _audit_sample(text: str) -> int:
    """``--audit-sample``: a number of tasks per family, or ``all``."""
    from tau_env.generation.audit_sample import ALL_TASKS

    if text.strip().lower() == "all":
        return ALL_TASKS
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number or 'all', not {text!r}") from None


def add_parser(commands: Any) -> None:
    """Register the subcommand."""
    parser = documented_parser(commands, "generate", _SUMMARY, __doc__)
    parser.add_argument(
        "--domain", required=True, help="airline, retail, telecom or banking_knowledge"
    )
    parser.add_argument("--seed", type=int, default=0, help="seeds every draw (default: 0)")
    parser.add_argument("--tasks", type=int, required=True, help="how many tasks the set holds")
    parser.add_argument(
        "--out", required=True, help="data folder; the set goes to OUT/domains/DOMAIN/"
    )
    parser.add_argument(
        "--families",
        type=_names,
        help="comma-separated families to draw from (default: all; a wrong name lists them); "
        "NAME=W weighs a family: shares proportional to the weights (cancel=3,exchange=1), "
        "a family without a weight weighs 1; a plain list keeps each family's natural share",
    )
    parser.add_argument(
        "--hold-out-families",
        type=_names,
        metavar="A,B",
        help="comma-separated families whose tasks all go to the split test_family, never to "
        "train or test (measures generalisation to unseen families)",
    )
    parser.add_argument(
        "--hold-out-world",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="airline, retail: this share of the world's customers (0 to 1) is set apart; "
        "tasks on them go to the split test_world, and no train task names them (default: 0)",
    )
    parser.add_argument(
        "--hold-out-compositions",
        action="store_true",
        help="telecom, retail: tasks combining sub-goals that train has only separately (two "
        "faults, cancel + new address) go to the split test_compositional",
    )
    parser.add_argument(
        "--world-size",
        type=int,
        help="customers in the generated world (airline, retail; default: grows with --tasks)",
    )
    parser.add_argument(
        "--difficulty",
        type=_names,
        help="comma-separated levels to keep: easy (gold plan of 1-2 steps), medium (3-4), "
        "hard (5 or more)",
    )
    parser.add_argument(
        "--audit-sample",
        type=_audit_sample,
        default=DEFAULT_AUDIT_SAMPLE,
        metavar="K",
        help="tasks of each family played with the shortcut probes of tau-env audit (evenly "
        "spaced; all: every task), each probe's pass rate over the set and per family "
        f"recorded in the manifest (default: {DEFAULT_AUDIT_SAMPLE}; 0: no audit)",
    )
    parser.add_argument(
        "--require-audit",
        action="store_true",
        help="when a shortcut probe passes more than 5%% of the set, select it again with the "
        "share of the families it passes cut (recorded in the manifest); refuse to write it "
        "when that cannot bring every probe within 5%%",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="processes sharing the gold replays (default: 1; the set written is the same)",
    )
    parser.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="where the gold replays run: local processes (--workers) or Ray tasks (the "
        "cluster ray.init finds; needs the ray extra); the set written is the same",
    )
    parser.add_argument(
        "--force", action="store_true", help="replace a set already at OUT/domains/DOMAIN/"
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    """Generate and write the set; print where, its identity and its families."""
    from tau_env.generation.manifest import identity
    from tau_env.generation.pipeline import generate_task_set
    from tau_env.generation.request import checked_request

    request = checked_request(
        args.domain,
        args.seed,
        args.tasks,
        args.families,
        args.world_size,
        args.difficulty,
        args.audit_sample,
        args.workers,
        args.hold_out_families,
        args.require_audit,
        hold_out_world=args.hold_out_world,
        hold_out_compositions=args.hold_out_compositions,
        backend=args.backend,
    )
    generated = generate_task_set(
        request, args.out, force=args.force, progress=lambda line: print(line, file=sys.stderr)
    )
    manifest = generated.manifest
    print(f"wrote {manifest['tasks']} verified tasks to {generated.folder}")
    print(identity(manifest))
    splits = ", ".join(f"{name} {count}" for name, count in manifest["splits"].items())
    levels = ", ".join(f"{name} {count}" for name, count in manifest["difficulty"].items())
    print(f"splits: {splits}; difficulty: {levels}; world: {manifest['world_size']} customers")
    print(f"duplicates removed: {manifest['duplicates_removed']}")
    audited = manifest.get("audit")
    if audited is not None:
        verdict = "within" if audited["within_limit"] else "ABOVE"
        print(
            f"audit of {audited['tasks']} tasks ({len(audited['families'])} families): the best "
            f"shortcut probe passes {audited['max_probe_rate']:.1%} of the set ({verdict} the "
            f"{audited['limit']:.0%} limit)"
        )
        for family, cut in audited.get("regenerated", {}).get("cut", {}).items():
            print(f"  regenerated: {family} cut from {cut['from']} to {cut['to']} tasks")
    for family, count in manifest["families"].items():
        print(f"  {family}: {count}")
    return 0
