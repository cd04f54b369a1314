"""Customer settings that look like problems but are not: the benchmark's distractors.

Real customers keep data saver on, use a VPN, call over Wi-Fi or pin a network mode on
purpose. Each `Setting` here is harmless for some intents (the goal is reached with it in
place) and is part of the task's starting state; the policy says to leave such settings alone
and the DB check holds the agent to it, so "fix everything that looks unusual" fails. A setting
never appears in a task whose issues touch the same switch (`conflicts`), nor in an intent it
would break (`benign_for`).
"""

from __future__ import annotations

from dataclasses import dataclass

from tau_env.data_files import builtin_toml
from tau_env.tasks.model import EnvFunctionCall

__all__ = ["SETTINGS", "Setting"]


@dataclass(frozen=True)
class Setting:
    """A harmless setting the customer chose.

    Attributes:
        name: Identifier (in task ids, after ``[KEEP:``).
        summary: One line for reviewers.
        calls: Setup calls that put it in place (run after the issues' setup).
        benign_for: Intents whose goal it does not affect.
        conflicts: Issues that touch the same switch (never combined with it).
    """

    name: str
    summary: str
    calls: tuple[EnvFunctionCall, ...]
    benign_for: frozenset[str]
    conflicts: frozenset[str] = frozenset()


def _read_table() -> tuple[Setting, ...]:
    return tuple(
        Setting(
            name=name,
            summary=entry["summary"],
            calls=(
                EnvFunctionCall(
                    env_type="user", func_name=entry["call"], arguments=entry.get("arguments", {})
                ),
            ),
            benign_for=frozenset(entry["benign_for"]),
            conflicts=frozenset(entry["conflicts"]),
        )
        for name, entry in builtin_toml(__package__, "settings.toml").items()
    )


SETTINGS = _read_table()
"""Every setting, by order of drawing (``settings.toml``, next to this module)."""
