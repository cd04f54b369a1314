"""Views for reinforcement-learning libraries that want fixed-size spaces (SB3, RLlib...).

- `FeaturizedEnv`: the single-agent view with a Box observation and Discrete action
  templates, plus ``action_masks()`` for MaskablePPO.
- `make_featurized_env`: the featurized view of a domain (telecom, airline, retail) with
  the scripted user in a given style; gymnasium ids ``tau_env/<Domain>Featurized-v<N>``.
- `TelecomFeaturizer` (and the airline and retail featurizers): what the agent learned so
  far, read for its meaning and encoded as fixed features; templates with arguments filled in.

Nothing here imports torch or SB3.
"""

from __future__ import annotations

from tau_env.wrappers.rl.featurized import FeaturizedEnv, Featurizer
from tau_env.wrappers.rl.telecom_featurizer import TelecomFeaturizer
from tau_env.wrappers.rl.views import (
    FEATURIZERS,
    featurizer_for,
    make_featurized_env,
    make_telecom_featurized_env,
)

__all__ = [
    "FEATURIZERS",
    "FeaturizedEnv",
    "Featurizer",
    "TelecomFeaturizer",
    "featurizer_for",
    "make_featurized_env",
    "make_telecom_featurized_env",
]
