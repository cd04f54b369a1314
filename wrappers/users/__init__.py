"""Policies for the ``"user"`` side: scripted, gold, LLM-backed and replayed users."""

from tau_env.wrappers.users.gold import GoldUser
from tau_env.wrappers.users.script import fallback_script, opening_line, resolve_script
from tau_env.wrappers.users.scripted import ScriptedUser

__all__ = ["GoldUser", "ScriptedUser", "fallback_script", "opening_line", "resolve_script"]
