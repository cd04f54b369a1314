"""Policies for the ``"user"`` side: scripted, gold, LLM-backed and replayed users.

Each is a participant (`tau_env.participant.Participant`): built per episode from the task,
asked for one action at a time with the user side's view and context. ``factory`` class
methods give the task -> participant callables that runners and the single-agent view take.

Names load on first use: a caller of one user (the gold replay's `GoldUser`, or a module of
this package such as the matcher) does not import the others (the LLM user, the scripted
user's phrasing).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tau_env.lazy import lazy_getattr

_EXPORTS = {
    "BUILTIN_GUIDELINES": "tau_env.wrappers.users.guidelines",
    "STYLES": "tau_env.wrappers.users.style",
    "GoldUser": "tau_env.wrappers.users.gold",
    "LLMUser": "tau_env.wrappers.users.llm_user",
    "ReplayUser": "tau_env.wrappers.users.replay",
    "ScriptedUser": "tau_env.wrappers.users.scripted",
    "UserGuidelines": "tau_env.wrappers.users.guidelines",
    "UserStyle": "tau_env.wrappers.users.style",
    "guidelines_for": "tau_env.wrappers.users.guidelines",
    "opening_line": "tau_env.wrappers.users.script",
    "read_brief": "tau_env.wrappers.users.script",
    "resolve_script": "tau_env.wrappers.users.script",
    "style_for_persona": "tau_env.wrappers.users.style",
    "user_actions": "tau_env.wrappers.users.replay",
    "user_system_prompt": "tau_env.wrappers.users.llm_user",
}

__all__ = [
    "BUILTIN_GUIDELINES",
    "STYLES",
    "GoldUser",
    "LLMUser",
    "ReplayUser",
    "ScriptedUser",
    "UserGuidelines",
    "UserStyle",
    "guidelines_for",
    "opening_line",
    "read_brief",
    "resolve_script",
    "style_for_persona",
    "user_actions",
    "user_system_prompt",
]

if TYPE_CHECKING:
    from tau_env.wrappers.users.gold import GoldUser
    from tau_env.wrappers.users.guidelines import (
        BUILTIN_GUIDELINES,
        UserGuidelines,
        guidelines_for,
    )
    from tau_env.wrappers.users.llm_user import LLMUser, user_system_prompt
    from tau_env.wrappers.users.replay import ReplayUser, user_actions
    from tau_env.wrappers.users.script import opening_line, read_brief, resolve_script
    from tau_env.wrappers.users.scripted import ScriptedUser
    from tau_env.wrappers.users.style import STYLES, UserStyle, style_for_persona


__getattr__ = lazy_getattr(__name__, _EXPORTS, globals())


def __dir__() -> list[str]:
    """The public names (for tab completion), not this module's helpers."""
    return sorted(__all__)
