"""Views for reinforcement-learning libraries that want fixed-size spaces (SB3, RLlib...).

- `FeaturizedEnv`: the single-agent view with a Box observation and Discrete action
  templates, plus ``action_masks()`` for MaskablePPO.
- `TelecomFeaturizer`, `make_telecom_featurized_env`: its telecom featurizer (what the agent
  learned so far, encoded as fixed features; templates with arguments filled from it).

Nothing here imports torch or SB3.
"""

from __future__ import annotations

from tau_env.wrappers.rl.featurized import FeaturizedEnv, Featurizer
from tau_env.wrappers.rl.telecom_featurizer import TelecomFeaturizer, make_telecom_featurized_env

__all__ = ["FeaturizedEnv", "Featurizer", "TelecomFeaturizer", "make_telecom_featurized_env"]
