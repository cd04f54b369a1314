"""Write the built-in retail data in the reference's folder layout, for reading or reuse.

Usage: ``python -m tau_env.domains.retail.generator OUT_DIR [--seed N]``. The result loads
with ``make_env("retail", data_dir=...)`` when placed at ``<data_dir>/domains/retail/``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tau_env.data_files import builtin_text
from tau_env.domains.retail.constants import BUILTIN_SEED
from tau_env.domains.retail.generator import generate


def main(argv: list[str] | None = None) -> int:
    """Generate and write ``db.json``, ``tasks.json``, ``split_tasks.json`` and ``policy.md``."""
    parser = argparse.ArgumentParser(prog="python -m tau_env.domains.retail.generator")
    parser.add_argument("out_dir", type=Path, help="folder to write (created if missing)")
    parser.add_argument("--seed", type=int, default=BUILTIN_SEED, help="generator seed")
    args = parser.parse_args(argv)
    generated = generate(args.seed)
    out: Path = args.out_dir
    out.mkdir(parents=True, exist_ok=True)
    (out / "db.json").write_text(json.dumps(generated.data.model_dump(), indent=2))
    tasks = [task.model_dump(mode="json", exclude_none=True) for task in generated.tasks]
    (out / "tasks.json").write_text(json.dumps(tasks, indent=2))
    (out / "split_tasks.json").write_text(json.dumps(generated.splits, indent=2))
    (out / "policy.md").write_text(builtin_text("tau_env.domains.retail", "policy.md"))
    print(f"wrote {len(generated.tasks)} tasks and the store to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
