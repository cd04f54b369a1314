"""Users and modes: participants for the user side, and wrappers that change one thing each.

- `tau_env.wrappers.users`: `ScriptedUser`, `LLMUser`, `ReplayUser`, `GoldUser`.
- `NoUser`: removes the user (the agent gets the ticket, every tool and ``done``); it plays
  only tasks it can grade fairly (`no_user_refusal`: no COMMUNICATE reward, nobody to tell).
- `OraclePlan`: adds the task's resolution steps to the agent's instructions.
- `SingleAgentEnv`: the agent's side as a `gymnasium.Env`, the user played by a policy.

Importing this package registers the gymnasium ids ``tau_env/<Domain>-v<N>`` (see
`tau_env.wrappers.registration`). Other names load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tau_env.lazy import lazy_getattr
from tau_env.wrappers.registration import register_gym_envs

_EXPORTS = {
    "NoUser": "tau_env.wrappers.no_user",
    "DONE_TOOL": "tau_env.wrappers.no_user",
    "solo_compatible": "tau_env.wrappers.no_user",
    "playable_without_user": "tau_env.wrappers.no_user",
    "no_user_refusal": "tau_env.wrappers.no_user",
    "needs_a_listener": "tau_env.wrappers.no_user",
    "OraclePlan": "tau_env.wrappers.oracle_plan",
    "resolution_steps": "tau_env.wrappers.oracle_plan",
    "SingleAgentEnv": "tau_env.wrappers.single_agent",
    "make_single_agent_env": "tau_env.wrappers.single_agent",
}

__all__ = [
    "DONE_TOOL",
    "NoUser",
    "OraclePlan",
    "SingleAgentEnv",
    "make_single_agent_env",
    "needs_a_listener",
    "no_user_refusal",
    "playable_without_user",
    "register_gym_envs",
    "resolution_steps",
    "solo_compatible",
]

if TYPE_CHECKING:
    from tau_env.wrappers.no_user import (
        DONE_TOOL,
        NoUser,
        needs_a_listener,
        no_user_refusal,
        playable_without_user,
        solo_compatible,
    )
    from tau_env.wrappers.oracle_plan import OraclePlan, resolution_steps
    from tau_env.wrappers.single_agent import SingleAgentEnv, make_single_agent_env

register_gym_envs()


__getattr__ = lazy_getattr(__name__, _EXPORTS, globals())
