"""The environment: the turn protocol, its spaces, and the PettingZoo AEC shell."""

from tau_env.env.aec import SideContext, TauEnv
from tau_env.env.conversation import GREETING, Conversation, Seating, SideView
from tau_env.env.spaces import Unicode, action_space, observation_space

__all__ = [
    "GREETING",
    "Conversation",
    "Seating",
    "SideContext",
    "SideView",
    "TauEnv",
    "Unicode",
    "action_space",
    "observation_space",
]
