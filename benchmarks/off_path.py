"""Off-path instruction compliance of the scripted user on the official airline and retail tasks.

``python benchmarks/off_path.py [--seeds 0 1] [--listing benchmarks/results/off_path/checks.md]``

Every official airline and retail task whose instructions constrain the user's answer off the
expected path is labelled by hand in ``off_path_labels.toml`` (next to this script). Each label
becomes off-path agents (`tau_env.wrappers.users.conduct_measures.probes`: offer a transfer,
refuse, propose an alternative, ask twice for confirmation with a wider scope, ask an
off-script question, push back on a declined offer, quote a price over or under the budget),
played against the scripted user (its default style, the persona's) for each seed; each reply
is judged by the checks of its instruction kind. Prints the compliance per kind and check,
overall, and writes every check with its outcome and the reply to the listing file.

Needs the official data (``TAU2_DATA_DIR`` or ``../shared/tau2-data``). Asserts nothing (the
tests hold the user to each kind on a sample: tests/wrappers/users/test_conduct_measures.py).
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from collections import Counter
from pathlib import Path

import tau_env
from tau_env.wrappers.users import ScriptedUser
from tau_env.wrappers.users.conduct_measures import CHECKS, Outcome, judge

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from harness import official_data_dir  # noqa: E402

LABELS = HERE / "off_path_labels.toml"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    parser.add_argument("--listing", default=str(HERE / "results" / "off_path" / "checks.md"))
    args = parser.parse_args()
    data = official_data_dir()
    if data is None:
        raise SystemExit("off_path.py needs the official data (TAU2_DATA_DIR)")
    labels = tomllib.loads(LABELS.read_text(encoding="utf-8"))
    outcomes: list[tuple[str, Outcome]] = []
    for domain in ("airline", "retail"):
        env = tau_env.make_env(domain, data_dir=str(data))
        user = ScriptedUser.factory(env.unwrapped.domain)
        found = judge(env, user, labels[domain], args.seeds)
        outcomes += [(domain, outcome) for outcome in found]
        tasks = len({o.task_id for o in found})
        passed = sum(o.passed for o in found)
        print(f"{domain}: {tasks} labelled tasks, {passed}/{len(found)} checks passed")
    total = Counter((d, o.kind, o.check) for d, o in outcomes)
    good = Counter((d, o.kind, o.check) for d, o in outcomes if o.passed)
    print("\n| domain | instruction kind | check | passed | checks | rate |")
    print("|---|---|---|---|---|---|")
    for key in sorted(total):
        domain, kind, check = key
        print(
            f"| {domain} | {kind} | {CHECKS[check][0]} | {good[key]} | {total[key]} | "
            f"{good[key] / total[key]:.1%} |"
        )
    passed = sum(o.passed for _, o in outcomes)
    print(f"\noverall: {passed}/{len(outcomes)} checks passed ({passed / len(outcomes):.1%})")
    listing = Path(args.listing)
    listing.parent.mkdir(parents=True, exist_ok=True)
    lines = ["| domain | task | seed | kind | check | passed | agent said | user replied |"]
    lines.append("|---|---|---|---|---|---|---|---|")
    for domain, o in outcomes:
        reply = (o.reply or "(call ended)").replace("|", "/").replace("\n", " ")
        lines.append(
            f"| {domain} | {o.task_id} | {o.seed} | {o.kind} | {o.check} | "
            f"{'yes' if o.passed else 'NO'} | {o.line} | {reply} |"
        )
    listing.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"every check: {listing}")


if __name__ == "__main__":
    main()
