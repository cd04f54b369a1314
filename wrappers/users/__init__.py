"""Policies for the ``"user"`` side."""

from tau_env.wrappers.users.gold import GoldUser, opening_line

__all__ = ["GoldUser", "opening_line"]
