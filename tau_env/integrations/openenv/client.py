"""A typed OpenEnv client for the tau_env server."""

from __future__ import annotations

from typing import Any

from openenv.core import EnvClient
from openenv.core.client_types import StepResult

from tau_env.integrations.openenv.models import TauAction, TauObservation, TauState

__all__ = ["TauEnvClient"]


class TauEnvClient(EnvClient):  # type: ignore[misc]  # openenv is untyped
    """Client of `tau_env.integrations.openenv.create_server_app` (async, or ``.sync()``).

    ``await client.reset(task_id=..., seed=...)`` then ``await client.step(TauAction(...))``;
    each returns a `StepResult` whose observation is a `TauObservation`.
    """

    def _step_payload(self, action: TauAction) -> dict[str, Any]:
        payload: dict[str, Any] = action.model_dump(exclude_none=True, exclude={"metadata"})
        return payload

    def _parse_result(self, payload: dict[str, Any]) -> StepResult:
        observation = TauObservation(
            **payload.get("observation", {}),
            done=payload.get("done", False),
            reward=payload.get("reward"),
        )
        return StepResult(observation=observation, reward=observation.reward, done=observation.done)

    def _parse_state(self, payload: dict[str, Any]) -> TauState:
        return TauState(**payload)
