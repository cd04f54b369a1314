"""OpenEnv for tau_env: a server for any domain, mode, split and user, and a typed client.

Serve with ``tau-env serve telecom`` (127.0.0.1:8000) or
``uvicorn`` on `create_server_app`; play with `TauEnvClient`, OpenEnv's ``GenericEnvClient`` or
verifiers' ``OpenEnvTaskset(base_url=...)`` (its model replies with the action as JSON:
``{"content": ...}`` or ``{"tool_calls": [...]}``). Requires the ``openenv`` extra.
"""

from __future__ import annotations

from tau_env.utils.extras import missing_extra

try:
    from tau_env.integrations.openenv.client import TauEnvClient
    from tau_env.integrations.openenv.models import TauAction, TauObservation, TauState
    from tau_env.integrations.openenv.server import TauOpenEnv, create_server_app, env_name
except ImportError as error:  # a one-line message naming the extra to install
    raise missing_extra("openenv", error, feature="tau_env.integrations.openenv") from error

__all__ = [
    "TauAction",
    "TauEnvClient",
    "TauObservation",
    "TauOpenEnv",
    "TauState",
    "create_server_app",
    "env_name",
]
