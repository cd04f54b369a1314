"""``python -m tau_env.domains.airline.generator [--seed N] [--out DIR]``: write the data."""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from tau_env.domains.airline.generator import BUILTIN_SEED, generate, write_files


def main() -> None:
    """Generate, verify and write the built-in airline data."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=BUILTIN_SEED)
    parser.add_argument("--out", type=Path, default=Path(__file__).parents[1] / "data")
    args = parser.parse_args()
    generated = generate(args.seed)
    write_files(args.out, generated)
    families = Counter(task.id.rsplit("_", 1)[0] for task in generated.tasks)
    print(f"{len(generated.tasks)} tasks verified, written to {args.out}")
    for family, count in families.items():
        print(f"  {family}: {count}")


if __name__ == "__main__":
    main()
