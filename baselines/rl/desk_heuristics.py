"""Trivial template policies for the retail and airline featurized views: what must not pay.

Each reads the feature vector and the action mask only, like a learned policy, and does what
the audit's probes (`tau_env.baselines.probes`) do, inside the view:

- `TransferAtOnce`: hands every customer to a human straight away.
- `MaskOrder` (``mask_order``): the first applicable template in the view's fixed order,
  reading nothing but the mask (`tau_env.baselines.rl.mask_order`).
- `LookUpThen`: identifies the customer, makes every look-up and asks every question the
  manual would (`DeskPolicy.next_look_up`), then, without weighing the policy's rules,
  refuses (``then="refuse"``: with the figures the view found, no reason, then ends), tells
  the figures it found and ends (``then="tell"``), or transfers (``then="transfer"``).

The built-in tasks are graded so that doing nothing, refusing everything or only looking
things up fails (issue 45); the benchmark reports these beside the learned policies.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from tau_env.baselines.rl.desk_manual import DeskPolicy
from tau_env.baselines.rl.mask_order import MaskOrder

__all__ = ["LookUpThen", "TransferAtOnce", "desk_trivial_policies"]


class TransferAtOnce:
    """Transfers every customer at once."""

    def __init__(self, feature_names: Sequence[str], template_names: Sequence[str]) -> None:
        self.transfer = list(template_names).index("transfer")

    def __call__(self, features: NDArray[np.float32], mask: NDArray[np.bool_]) -> int:
        """Always the transfer template."""
        return self.transfer


class LookUpThen(DeskPolicy):
    """Looks everything up, then refuses, tells or transfers (see the module docstring).

    Args:
        feature_names: The featurizer's feature names.
        template_names: The templates, by action index.
        then: What to do once nothing is left to look up or ask.
    """

    def __init__(
        self,
        feature_names: Sequence[str],
        template_names: Sequence[str],
        then: Literal["refuse", "tell", "transfer"] = "refuse",
    ) -> None:
        super().__init__(feature_names, template_names)
        self.then = then

    def __call__(self, features: NDArray[np.float32], mask: NDArray[np.bool_]) -> int:
        """The next template."""
        step = self.next_look_up(features, mask)
        if step is not None:
            return step
        final = self.template[self.then]
        taken = features[self.feature[f"taken:{self.then}"]] > 0
        if self.then != "transfer" and (taken or not mask[final]):
            return self.template["end"]
        return final


def desk_trivial_policies(
    feature_names: Sequence[str], template_names: Sequence[str]
) -> dict[str, TransferAtOnce | MaskOrder | LookUpThen]:
    """Every trivial desk policy by name.

    The names are ``transfer_at_once``, ``mask_order``, ``look_up_then_refuse``,
    ``look_up_then_tell`` and ``look_up_then_transfer``.
    """
    return {
        "transfer_at_once": TransferAtOnce(feature_names, template_names),
        "mask_order": MaskOrder(feature_names, template_names),
        "look_up_then_refuse": LookUpThen(feature_names, template_names, "refuse"),
        "look_up_then_tell": LookUpThen(feature_names, template_names, "tell"),
        "look_up_then_transfer": LookUpThen(feature_names, template_names, "transfer"),
    }
