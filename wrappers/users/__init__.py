"""Policies for the ``"user"`` side: scripted, gold, LLM-backed and replayed users.

Each is a participant (`tau_env.participant.Participant`): built per episode from the task,
asked for one action at a time with the user side's view and context. ``factory`` class
methods give the task -> participant callables that runners and the single-agent view take.
"""

from tau_env.wrappers.users.gold import GoldUser
from tau_env.wrappers.users.guidelines import BUILTIN_GUIDELINES, UserGuidelines, guidelines_for
from tau_env.wrappers.users.llm_user import LLMUser, user_system_prompt
from tau_env.wrappers.users.replay import ReplayUser, user_actions
from tau_env.wrappers.users.script import opening_line, read_brief, resolve_script
from tau_env.wrappers.users.scripted import ScriptedUser
from tau_env.wrappers.users.style import STYLES, UserStyle, style_for_persona

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
