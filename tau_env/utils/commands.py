"""Commands that tau_env prints for the user to run next, written so they can be pasted.

Every value is quoted for a POSIX shell (`shlex.quote`), so a store path with spaces or a run
id with parentheses arrives as one argument; a value that starts with ``-`` is attached with
``=`` (``--run=-x``), so argparse does not take it for an option.
"""

from __future__ import annotations

import re
import shlex

__all__ = ["id_part", "resume_command", "tau_env_command"]

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def tau_env_command(subcommand: str, *options: tuple[str, str | None]) -> str:
    """``tau-env <subcommand> --option value ...``, each value quoted; None values are left out.

    Args:
        subcommand: ``run``, ``resume``, ``tasks``...
        *options: (``--flag``, value) pairs, in the order to print them.
    """
    words = ["tau-env", subcommand]
    for flag, value in options:
        if value is None:
            continue
        if value.startswith("-"):
            words.append(f"{flag}={shlex.quote(value)}")
        else:
            words += [flag, shlex.quote(value)]
    return " ".join(words)


def resume_command(
    store: str, run_id: str, *, agent: str | None = None, user: str | None = None
) -> str:
    """The command that continues run `run_id` of the store at `store`.

    `agent` and `user`: a side's ``package.module:factory``, which a resume must be given again
    (`tau_env.rollout.preflight.confirm_factories`); None for a built-in kind.
    """
    return tau_env_command(
        "resume", ("--store", store), ("--run", run_id), ("--agent", agent), ("--user", user)
    )


def id_part(text: str) -> str:
    """`text` reduced to letters, digits, ``.``, ``_`` and ``-`` (for a generated run id).

    Each run of other characters becomes one ``_``; ``llm(openai/gpt-4.1)`` gives
    ``llm_openai_gpt-4.1``, which needs no quoting in any shell.
    """
    return _UNSAFE.sub("_", text).strip("_") or "_"
