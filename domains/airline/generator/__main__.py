"""``python -m tau_env.domains.airline.generator [--seed N] [--out DIR]``: write the data."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from tau_env.domains.airline.generator import BUILTIN_SEED, generate, write_files
from tau_env.domains.generator_options import generator_options


def main() -> None:
    """Generate, verify and write the built-in airline data."""
    args = generator_options(__doc__, BUILTIN_SEED, Path(__file__).parents[1] / "data")
    generated = generate(args.seed)
    write_files(args.out, generated)
    families = Counter(task.family for task in generated.tasks)
    print(f"{len(generated.tasks)} tasks verified, written to {args.out}")
    for family, count in families.items():
        print(f"  {family}: {count}")


if __name__ == "__main__":
    main()
