"""Agreement and speed of ``tau-env import`` on results files written from real runs.

For each domain of the official data and each pair of participants (the oracle agent with the
gold user: every task passes; the random agent with the scripted user: almost every task
fails), the script plays the base split, exports the run in the reference's results layout
(``tau-env export``), imports that file into a fresh store (``tau-env import``) and prints how
the re-grades agree with the recorded rewards, check by check, with the import's time per
simulation. NL assertions are not judged (no model is called), so they are "not comparable".

    python benchmarks/import_agreement.py                       # every domain, 1 trial
    python benchmarks/import_agreement.py --domains airline --trials 4
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from tau_env.domain import load_domain
from tau_env.importing import COMPONENTS, import_results
from tau_env.rollout import ParticipantSpec, RunConfig, create_run, export_run, run
from tau_env.store import ResultStore

PAIRS = (("oracle", "gold"), ("random", "scripted"))
DOMAINS = ("airline", "retail", "telecom", "banking_knowledge", "mock")


def _data_dir(given: str | None) -> Path:
    for candidate in (given, os.environ.get("TAU2_DATA_DIR"), "../shared/tau2-data"):
        if candidate and (Path(candidate) / "domains").is_dir():
            return Path(candidate).resolve()
    raise SystemExit("no official data: pass --data-dir or set TAU2_DATA_DIR")


def measure(domain: str, agent: str, user: str, data_dir: Path, trials: int, folder: Path) -> str:
    """One markdown row: simulations, reward and per-check agreement, import time."""
    tasks = tuple(task.id for task in load_domain(domain, data_dir).split(None))
    config = RunConfig(
        run_id=f"{domain}-{agent}",
        domain=domain,
        data_dir=str(data_dir),
        task_ids=tasks,
        trials=trials,
        agent=ParticipantSpec(kind=agent),
        user=ParticipantSpec(kind=user),
    )
    with ResultStore(folder / "played.sqlite") as store:
        create_run(store, config)
        run(store, config)
        exported = export_run(store, config.run_id)
    path = folder / f"{config.run_id}.json"
    path.write_text(json.dumps(exported))
    passed = sum(
        1
        for simulation in exported["simulations"]
        if (simulation["reward_info"] or {}).get("reward") == 1.0
    )
    with ResultStore(folder / "imported.sqlite") as store:
        started = time.perf_counter()
        result = import_results(store, str(path), data_dir=str(data_dir))
        seconds = time.perf_counter() - started
    counts = result.agreement.counts
    cells = [
        f"{counts[c]['same']} / {counts[c]['differs']} / {counts[c]['not comparable']}"
        for c in COMPONENTS
    ]
    simulations = result.regraded + len(result.left_out)
    per_simulation = 1000 * seconds / max(simulations, 1)
    return (
        f"| {domain} | {agent} + {user} | {simulations} | {passed} | "
        + " | ".join(cells)
        + f" | {per_simulation:.1f} |"
    )


def main() -> None:
    """Parse the arguments and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--domains", default=",".join(DOMAINS))
    parser.add_argument("--trials", type=int, default=1)
    args = parser.parse_args()
    data_dir = _data_dir(args.data_dir)
    header = " | ".join(f"{c} same / differs / n.c." for c in COMPONENTS)
    print(f"| domain | participants | simulations | passed | {header} | import ms/simulation |")
    print("|---" * (5 + len(COMPONENTS)) + "|")
    for domain in args.domains.split(","):
        for agent, user in PAIRS:
            with tempfile.TemporaryDirectory() as folder:
                print(measure(domain, agent, user, data_dir, args.trials, Path(folder)), flush=True)


if __name__ == "__main__":
    main()
