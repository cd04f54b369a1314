"""Participants for reliability runs, importable as ``tests.reliability.agents:<name>``."""

from __future__ import annotations

import asyncio
from typing import Any

from tau_env.actions import Action, Stop
from tau_env.baselines.oracle import OracleAgent
from tau_env.tasks.model import Task


class FlakyOracle(OracleAgent):
    """The oracle, except on episode seeds divisible by 3, where it hangs up at once (and fails).

    Its outcome depends on the seed only, so two runs with the same seeds score the same, and
    pass^k is neither 0 nor 1. It thinks 10 ms per decision, asynchronously, so a run lasts long
    enough to be killed at chosen points.
    """

    fails = False

    def set_seed(self, seed: int) -> None:
        """Decide, from the episode seed, whether this episode is one it fails."""
        self.fails = seed % 3 == 0

    async def aact(self, view, context) -> Action:
        await asyncio.sleep(0.01)
        if self.fails:
            return Stop()
        return self.act(view, context)


KEYED: dict[str, Any] = {}
"""Set by a test: ``api_base``, ``api_key`` and ``cache`` for `keyed_llm_user`."""


def keyed_llm_user(task: Task) -> Any:
    """An LLM user whose key is passed in `ModelConfig.api_key` (not the environment)."""
    from tau_env.llm import LLMClient, ModelConfig
    from tau_env.wrappers.users import LLMUser

    config = ModelConfig(model="openai/fake", api_base=KEYED["api_base"], api_key=KEYED["api_key"])
    return LLMUser(task, LLMClient(config, cache=KEYED["cache"]))
