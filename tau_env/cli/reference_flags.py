"""The τ²-bench command line's flags, for users who type them out of habit.

``tau2 run`` and ``tau-env run`` mean the same by many flags under other names. Those are
accepted as aliases (`ALIASES`, listed by `add_reference_aliases` beside tau_env's own name in
``--help``); the flags of the reference with no equivalent here are refused with one line that
says what to use instead (`NO_EQUIVALENT`). ``docs/coming-from-tau2.md`` lists both tables.
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Sequence
from typing import Any

from tau_env.errors import TauEnvError

__all__ = [
    "ALIASES",
    "LOG_LEVELS",
    "NO_EQUIVALENT",
    "REFERENCE_KINDS",
    "add_no_equivalent_flags",
    "kind_hint",
    "set_log_level",
]

ALIASES: dict[str, str] = {
    "--num-trials": "--trials",
    "--num-tasks": "--num-tasks",
    "--task-ids": "--tasks",
    "--task-split-name": "--split",
    "--max-concurrency": "--concurrency",
    "--agent-llm": "--agent-model",
    "--user-llm": "--user-model",
    "--agent-llm-args": "--agent-llm-args",
    "--user-llm-args": "--user-llm-args",
    "--retrieval-config": "--retrieval",
    "--retrieval-config-kwargs": "--retrieval-options",
    "--log-level": "--log-level",
    "-d": "--domain",
}
"""A flag of ``tau2 run`` -> the ``tau-env run`` flag of the same meaning (itself when tau_env
took the reference's name)."""

NO_EQUIVALENT: dict[str, str] = {
    "--save-to": "runs are kept in a result store: --store FILE and --run NAME; "
    "`tau-env export` writes a run as results.json",
    "--auto-resume": "`tau-env resume --store FILE --run NAME` continues a run",
    "--task-set-name": "a task set is a domain's tasks: --domain NAME (and --data-dir DIR for "
    "the official data)",
    "--timeout": "there is no wall-clock limit per simulation: --max-steps limits an episode, "
    "--agent-llm-args '{\"timeout\": 60}' a model call",
    "--max-retries": "model calls are retried with back-off on their own, and `tau-env resume` "
    "replays the episodes whose attempts failed",
    "--retry-delay": "model calls are retried with back-off on their own, and `tau-env resume` "
    "replays the episodes whose attempts failed",
    "--provider-limit": "--llm-concurrency N caps the model calls in flight",
    "--verbose-logs": "every episode's conversation and usage are stored: `tau-env view` shows "
    "them; --log-level DEBUG logs the model calls",
    "--llm-log-mode": "every episode's conversation and usage are stored: `tau-env view` shows "
    "them; --log-level DEBUG logs the model calls",
    "--reasoning-effort": "pass it as a model setting: --agent-llm-args "
    '\'{"reasoning_effort": "high"}\'',
    "--user-persona": "the scripted user speaks as each task's persona describes",
    "--enforce-communication-protocol": "tau_env applies its message protocol to every run",
    "--xml-prompt": "the llm agent's prompt is tau_env's own; a custom agent is "
    "--agent package.module:factory",
    "--no-xml-prompt": "the llm agent's prompt is tau_env's own; a custom agent is "
    "--agent package.module:factory",
    "--auto-review": "there is no LLM review of conversations: `tau-env view` shows them and "
    "`tau-env audit` probes the task set",
    "--review-mode": "there is no LLM review of conversations: `tau-env view` shows them and "
    "`tau-env audit` probes the task set",
    "--review-model": "there is no LLM review of conversations: `tau-env view` shows them and "
    "`tau-env audit` probes the task set",
    "--audio-native": "voice (full-duplex) simulations are not supported; tau_env plays text",
}
"""A flag of ``tau2 run`` with no equivalent in ``tau-env run`` -> what to use instead."""

REFERENCE_KINDS: dict[str, dict[str, str]] = {
    "agent": {
        "llm_agent": "--agent llm",
        "llm_agent_solo": "--agent llm --mode no-user",
        "llm_agent_gt": "--agent llm --mode oracle-plan",
    },
    "user": {"user_simulator": "--user llm", "dummy_user": "--mode no-user"},
}
"""τ²-bench's agent and user implementations -> the ``tau-env run`` options that play them."""

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
"""The levels ``--log-level`` takes (the `logging` module's)."""


class _NoEquivalent(argparse.Action):
    """Refuses a reference flag with the one line that says what to use instead."""

    def __init__(self, *args: Any, instead: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.instead = instead

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        flag = option_string or self.option_strings[0]
        raise TauEnvError(f"{flag} is a τ²-bench flag with no equivalent here: {self.instead}")


def add_no_equivalent_flags(parser: argparse.ArgumentParser) -> None:
    """Make every `NO_EQUIVALENT` flag a one-line refusal (hidden from ``--help``).

    The flag takes an optional value, so ``--save-to out`` and ``--auto-resume`` are both
    refused by name rather than as "unrecognized arguments".
    """
    for flag, instead in NO_EQUIVALENT.items():
        parser.add_argument(
            flag, nargs="?", action=_NoEquivalent, instead=instead, help=argparse.SUPPRESS
        )


def kind_hint(side: str, kind: str) -> str | None:
    """What to type for τ²-bench's name of an agent or user implementation (None: not one)."""
    instead = REFERENCE_KINDS.get(side, {}).get(kind)
    return None if instead is None else f"{kind!r} is τ²-bench's name; here: {instead}"


def set_log_level(level: str | None) -> None:
    """Log to standard error from `level` up (``--log-level``; None: leave logging as it is).

    The root logger takes the level; a handler writing to standard error is added unless one
    is there already (a host program, or a test runner, may have its own).
    """
    if level is None:
        return
    root = logging.getLogger()
    root.setLevel(level)
    if not root.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        root.addHandler(handler)
