"""TRL (GRPO) on tau_env: an ``environment_factory`` per domain, a ``rollout_func``, datasets.

Two routes, both playing real tau_env episodes with the user participant you pick:

- `environment_factory(domain)`: a class TRL instantiates per rollout. Its public methods are
  the agent's tools (bound from the domain's schemas) plus ``send_message_to_customer``; TRL
  renders them into the prompt, runs the model's tool calls and stops at the first reply
  without one. ``reset`` starts the task of the dataset row, ``get_reward`` grades it.
- `make_rollout_func(domain)`: generates every turn itself and returns the true multi-turn
  token sequence with ``env_mask`` (model tokens 1, environment tokens 0).

Both take ``reward=`` (``"binary"``, ``"partial"``, ``"breakdown"``: `tau_env.grading.reward`;
per-check reward functions: `component_rewards`) and ``judge=`` (tasks scored by NL assertions
are left out without one), and derive each rollout's episode seed from the row's seed
(``group_seeds``: `tau_env.integrations.trl.seeds`).

Requires the ``trl`` extra. Datasets: `environment_dataset`, `rollout_dataset`; their rows name
tasks by opaque keys (`task_key`), never by id: nothing the model may be shown names its task.
"""

from __future__ import annotations

from tau_env.integrations.trl.dataset import environment_dataset, rollout_dataset, task_ids
from tau_env.integrations.trl.environment import (
    MESSAGE_TOOL,
    TauToolEnvironment,
    environment_factory,
)
from tau_env.integrations.trl.keys import task_key
from tau_env.integrations.trl.rewards import CHECKS, component_rewards
from tau_env.integrations.trl.rollout import (
    ROLLOUT_KEY,
    EpisodeRollout,
    TauRollout,
    make_rollout_func,
    tau_reward,
)

__all__ = [
    "CHECKS",
    "MESSAGE_TOOL",
    "ROLLOUT_KEY",
    "EpisodeRollout",
    "TauRollout",
    "TauToolEnvironment",
    "component_rewards",
    "environment_dataset",
    "environment_factory",
    "make_rollout_func",
    "rollout_dataset",
    "task_ids",
    "task_key",
    "tau_reward",
]
