"""The options of the built-in data generators' command lines (airline, banking_knowledge)."""

from __future__ import annotations

import argparse
from pathlib import Path

__all__ = ["generator_options"]


def generator_options(description: str | None, seed: int, data_folder: Path) -> argparse.Namespace:
    """``--seed N`` (default `seed`) and ``--out DIR`` (default `data_folder`), parsed."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--out", type=Path, default=data_folder)
    return parser.parse_args()
