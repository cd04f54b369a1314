"""``python -m tau_env.domains.banking_knowledge.generator [--seed N] [--out DIR]``.

Generates, verifies and writes the built-in bank's data files.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from tau_env.domains.banking_knowledge.generator import BUILTIN_SEED, generate, write_files
from tau_env.domains.banking_knowledge.generator.tasks import family_of
from tau_env.domains.generator_options import generator_options


def main() -> None:
    """Generate, verify and write the built-in bank."""
    args = generator_options(__doc__, BUILTIN_SEED, Path(__file__).parents[1] / "data")
    generated = generate(args.seed)
    write_files(args.out, generated)
    families = Counter(family_of(task["id"]) for task in generated.tasks)
    print(
        f"{len(generated.tasks)} tasks verified, {len(generated.documents)} documents, "
        f"written to {args.out}"
    )
    for family, count in families.items():
        split = "test" if task_in(generated.splits["test"], family) else "train"
        print(f"  {family}: {count} ({split})")


def task_in(ids: list[str], family: str) -> bool:
    """Whether any of `ids` belongs to `family`."""
    return any(family_of(task_id) == family for task_id in ids)


if __name__ == "__main__":
    main()
