"""``python -m tau_env.domains.banking_knowledge.generator [--seed N] [--out DIR]``.

Generates, verifies and writes the built-in bank's data files.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from tau_env.domains.banking_knowledge.generator import BUILTIN_SEED, generate, write_files
from tau_env.domains.generator_options import generator_options


def main() -> None:
    """Generate, verify and write the built-in bank."""
    args = generator_options(__doc__, BUILTIN_SEED, Path(__file__).parents[1] / "data")
    generated = generate(args.seed)
    write_files(args.out, generated)
    test = set(generated.splits["test"])
    families: Counter[tuple[str, str]] = Counter(
        (task["description"]["parameters"]["product"], "test" if task["id"] in test else "train")
        for task in generated.tasks
    )
    print(
        f"{len(generated.tasks)} tasks verified, {len(generated.documents)} documents, "
        f"written to {args.out}"
    )
    for (family, split), count in families.items():
        print(f"  {family}: {count} ({split})")


if __name__ == "__main__":
    main()
