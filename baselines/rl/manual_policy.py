"""A hand-written template policy for telecom that follows the tech-support manual.

It reads only what a learned policy reads (the feature vector and the action mask), so its
success shows that the features and templates are enough to solve the tasks: a reference
point for what RL can reach through the featurized view, not a learned agent.

The plan: identify the customer and their line, ask where they are, list the bills and the
data usage; transfer when the manual says only a human can help (a suspended line whose
contract ended, a locked SIM, a line out of data with no refuel allowance left); read the
network status, then the specific checks; fix everything that a check showed broken, most
basic first (bills and line before the phone, roaming only abroad); restart the phone after
an APN reset or a resumed line; check the status bar; end when nothing is left to try.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

__all__ = ["ManualPolicy"]

_IDENTIFY = (
    "ask_phone_number",
    "get_customer_by_phone",
    "get_line_details",
    "ask_location",
    "get_bills",
    "get_data_usage",
)
_CHECKS = (
    "check_network_status",
    "check_sim_status",
    "check_apn_settings",
    "check_network_mode",
    "check_vpn",
    "check_data_saver",
    "check_wifi_calling",
    "check_messaging_permissions",
)
_FIXES = (
    "send_payment_request",
    "make_payment",
    "resume_line",
    "turn_airplane_mode_off",
    "reseat_sim_card",
    "turn_mobile_data_on",
    "turn_data_roaming_on",
    "enable_roaming",
    "refuel_data",
    "turn_data_saver_off",
    "set_network_mode_4g_5g",
    "disconnect_vpn",
    "turn_wifi_calling_off",
    "grant_sms_permission",
    "grant_storage_permission",
    "reset_apn_settings",
)
_ONLY_ABROAD = ("turn_data_roaming_on", "enable_roaming")


class ManualPolicy:
    """The manual as a template policy: ``policy(features, mask) -> template index``.

    Args:
        feature_names: The featurizer's feature names (`FeaturizedEnv.feature_names`).
        template_names: The templates, by action index (`FeaturizedEnv.template_names`).
    """

    def __init__(self, feature_names: Sequence[str], template_names: Sequence[str]) -> None:
        self.feature = {name: index for index, name in enumerate(feature_names)}
        self.template = {name: index for index, name in enumerate(template_names)}
        missing = {"transfer", "end", *_IDENTIFY, *_CHECKS, *_FIXES} - set(self.template)
        if missing:
            raise ValueError(f"templates missing for the manual policy: {sorted(missing)}")

    def __call__(self, features: NDArray[np.float32], mask: NDArray[np.bool_]) -> int:
        """The next template."""

        def on(name: str) -> bool:
            return bool(features[self.feature[name]] > 0)

        def can(name: str) -> bool:
            return bool(mask[self.template[name]])

        if (
            (on("line_suspended") and on("contract_ended"))
            or on("sim=locked")
            or (on("out_of_data") and not on("refuel_allowance_left"))
        ):
            return self.template["transfer"]
        plan: list[str] = [*_IDENTIFY]
        if not on("taken:check_network_status"):
            plan.append("check_network_status")
        plan += [fix for fix in _FIXES if on("abroad") or fix not in _ONLY_ABROAD]
        if on("apn_reset=pending") or (on("taken:resume_line") and not on("taken:reboot_device")):
            plan.append("reboot_device")
        plan += [*_CHECKS, "check_status_bar"]
        for name in plan:
            if can(name):
                return self.template[name]
        return self.template["end"]
