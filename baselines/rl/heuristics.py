"""Trivial telecom template policies: what a benchmark must not reward.

Each reads the feature vector and the action mask only, like a learned policy:

- `TransferAtOnce`: hands every customer to a human straight away.
- `MaskOrder` (``mask_order``): the first applicable template in the view's fixed order,
  reading nothing but the mask (`tau_env.baselines.rl.mask_order`).
- `BlanketFix`: identifies the customer, runs every check, changes everything that looks
  unusual (any VPN, data saver, a network mode other than 4G/5G preferred, Wi-Fi calling,
  mobile data off, airplane mode, a missing SIM or permission, a broken APN; pays and resumes
  a suspended line, refuels a line out of data, turns roaming on abroad), restarts after an APN
  reset or a resumed line, then transfers (``then="transfer"``, the strongest on the old
  benchmark) or ends (``then="end"``).

The strict grading of built-in telecom (the DB check holds the agent to the settings the
customer keeps; a transfer is needed only when something is unfixable) makes both fail most
tasks; the benchmark reports them beside the learned policies.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from tau_env.baselines.rl.manual_policy import CHECK_FACTS, broken
from tau_env.baselines.rl.mask_order import MaskOrder

__all__ = ["BlanketFix", "MaskOrder", "TransferAtOnce", "trivial_policies"]

_IDENTIFY = ("ask_phone_number", "get_customer_by_phone", "get_line_details", "ask_location")
_ACCOUNT = ("get_bills", "get_data_usage", "send_payment_request", "make_payment", "resume_line")
_FIXES = (
    "refuel_data",
    "turn_airplane_mode_off",
    "reseat_sim_card",
    "turn_mobile_data_on",
    "turn_data_saver_off",
    "set_network_mode_4g_5g",
    "disconnect_vpn",
    "turn_wifi_calling_off",
    "grant_sms_permission",
    "grant_storage_permission",
    "reset_apn_settings",
)
_ABROAD = ("turn_data_roaming_on", "enable_roaming")


class _Policy:
    def __init__(self, feature_names: Sequence[str], template_names: Sequence[str]) -> None:
        self.feature = {name: index for index, name in enumerate(feature_names)}
        self.template = {name: index for index, name in enumerate(template_names)}


class TransferAtOnce(_Policy):
    """Transfers every customer at once."""

    def __call__(self, features: NDArray[np.float32], mask: NDArray[np.bool_]) -> int:
        """Always the transfer template."""
        return self.template["transfer"]


class BlanketFix(_Policy):
    """Fixes everything the checks reveal, then transfers or ends (see the module docstring).

    Args:
        feature_names: The featurizer's feature names.
        template_names: The templates, by action index.
        then: What to do once nothing is left to change.
    """

    def __init__(
        self,
        feature_names: Sequence[str],
        template_names: Sequence[str],
        then: Literal["transfer", "end"] = "transfer",
    ) -> None:
        super().__init__(feature_names, template_names)
        self.then = then

    def __call__(self, features: NDArray[np.float32], mask: NDArray[np.bool_]) -> int:
        """The next template."""

        def on(name: str) -> bool:
            if name == "refuel_spent":
                return bool(features[self.feature["data_refueled"]] >= 1.0)
            index = self.feature.get(name)
            return index is not None and bool(features[index] > 0)

        plan = [*_IDENTIFY, *_ACCOUNT]
        plan += [check for check in CHECK_FACTS if not on(f"taken:{check}")]
        plan += [*_FIXES, *(_ABROAD if on("abroad") else ())]
        rebooted = on("taken:reboot_device") and not on("changed_since_reboot")
        if not rebooted and (
            on("apn_reset=pending") or (on("taken:resume_line") and not on("taken:reboot_device"))
        ):
            plan.append("reboot_device")
        for name in plan:
            # The mask says only what can be formed: a fix is taken when a fact shows it broken.
            if mask[self.template[name]] and broken(name, on):
                return self.template[name]
        return self.template[self.then]


def trivial_policies(
    feature_names: Sequence[str], template_names: Sequence[str]
) -> dict[str, _Policy | MaskOrder]:
    """Every trivial policy by name.

    The names are ``transfer_at_once``, ``mask_order``, ``fix_all_then_transfer`` and
    ``fix_all_then_end``.
    """
    return {
        "transfer_at_once": TransferAtOnce(feature_names, template_names),
        "mask_order": MaskOrder(feature_names, template_names),
        "fix_all_then_transfer": BlanketFix(feature_names, template_names, "transfer"),
        "fix_all_then_end": BlanketFix(feature_names, template_names, "end"),
    }
