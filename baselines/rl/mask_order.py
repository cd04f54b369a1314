"""The mask-order rule: always the first applicable template, in the view's fixed order.

A policy that reads nothing but the action mask (issue 53). Whatever it scores, the mask
decided: a view whose mask says only what can be formed (never what the policy allows)
leaves it little; a view whose mask hides the moves the policy forbids hands it the task.
The benchmarks report it beside the learned policies of every featurized view.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

__all__ = ["MaskOrder"]


class MaskOrder:
    """``policy(features, mask) -> template index``: the lowest-index unmasked template.

    The order is the view's action index (`FeaturizedEnv.template_names`); the features are
    not read. With nothing unmasked, the last template (every view ends with ``end``).

    Args:
        feature_names: The featurizer's feature names (unused: the rule reads only the mask).
        template_names: The templates, by action index.
    """

    def __init__(self, feature_names: Sequence[str], template_names: Sequence[str]) -> None:
        self.fallback = len(template_names) - 1

    def __call__(self, features: NDArray[np.float32], mask: NDArray[np.bool_]) -> int:
        """The first unmasked template."""
        unmasked = np.flatnonzero(mask)
        return int(unmasked[0]) if unmasked.size else self.fallback
