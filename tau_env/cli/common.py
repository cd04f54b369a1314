"""Arguments shared by several subcommands."""

from __future__ import annotations

import argparse

__all__ = ["add_data_arguments"]


def add_data_arguments(parser: argparse.ArgumentParser, *, default_domain: str | None) -> None:
    """``--domain``, ``--data-dir``, ``--split`` and ``--tasks``."""
    parser.add_argument(
        "--domain",
        default=default_domain,
        required=default_domain is None,
        help="domain name or versioned id (default: %(default)s)",
    )
    parser.add_argument(
        "--data-dir",
        default=None,
        help="reference data folder (with domains/<domain>/); default: built-in data",
    )
    parser.add_argument("--split", default=None, help="task split (default: base, else all)")
    parser.add_argument(
        "--tasks", default=None, help="comma-separated task ids (default: the whole split)"
    )
