"""A hand-written template policy for telecom that follows the tech-support manual.

It reads only what a learned policy reads (the feature vector and the action mask), so its
success shows that the features and templates are enough to solve the tasks, whatever the
user's style: a reference point for what RL can reach through the featurized view, not a
learned agent.

The plan: identify the customer and their line, ask where they are, list the bills and the
data usage; run the checks of the troubleshooting path of the customer's problem (no service,
mobile data, MMS); fix what those checks show broken on that path only (the policy says to
leave other settings alone), most basic first; restart after an APN reset or a resumed line;
then, if something only a human can fix remains (a locked SIM, a suspended line whose contract
ended, a line out of data with no refuel allowance left), transfer; otherwise end.

The view's mask says only which templates can be formed (a change on the phone always can):
whether a fix is needed is read from the facts the checks revealed (`BROKEN`), here, by the
policy, as a learned policy would have to.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray

from tau_env.wrappers.rl.telecom_templates import CHECK_READS

__all__ = ["BROKEN", "CHECK_FACTS", "PATH_CHECKS", "PATH_FIXES", "ManualPolicy", "broken"]

_GOAL_CHECKS = ("check_status_bar", "run_speed_test", "check_mms")
_IDENTIFY = (
    "ask_phone_number",
    "get_customer_by_phone",
    "get_line_details",
    "ask_location",
    "get_bills",
    "get_data_usage",
)

CHECK_FACTS = {name: CHECK_READS[name] for name in CHECK_READS if name not in _GOAL_CHECKS}
"""Each diagnostic check -> the device facts its answer gives."""

PATH_CHECKS: dict[str, tuple[str, ...]] = {
    "service": ("check_network_status", "check_sim_status", "check_apn_settings"),
    "mobile_data": ("check_network_status", "check_data_saver", "check_network_mode", "check_vpn"),
    "mms": (
        "check_network_status",
        "check_sim_status",
        "check_network_mode",
        "check_wifi_calling",
        "check_messaging_permissions",
        "check_apn_settings",
    ),
}
"""The checks of each intent's troubleshooting path."""

_SERVICE_FIXES = (
    "send_payment_request",
    "make_payment",
    "resume_line",
    "turn_airplane_mode_off",
    "reseat_sim_card",
)
_DATA_FIXES = ("turn_mobile_data_on", "turn_data_roaming_on", "enable_roaming", "refuel_data")
PATH_FIXES: dict[str, tuple[str, ...]] = {
    "service": (*_SERVICE_FIXES, "reset_apn_settings"),
    "mobile_data": (
        *_SERVICE_FIXES,
        *_DATA_FIXES,
        "turn_data_saver_off",
        "set_network_mode_4g_5g",
        "disconnect_vpn",
    ),
    "mms": (
        *_SERVICE_FIXES,
        *_DATA_FIXES,
        "set_network_mode_4g_5g",
        "turn_wifi_calling_off",
        "grant_sms_permission",
        "grant_storage_permission",
        "reset_apn_settings",
    ),
}
"""The fixes of each intent's troubleshooting path, most basic first."""


BROKEN: dict[str, tuple[str, ...]] = {
    "turn_airplane_mode_off": ("airplane_mode=on",),
    "reseat_sim_card": ("sim=missing",),
    "turn_mobile_data_on": ("mobile_data=off",),
    "turn_data_roaming_on": ("data_roaming=off",),
    "turn_data_saver_off": ("data_saver=on",),
    "set_network_mode_4g_5g": (
        "network_mode=4g_only",
        "network_mode=3g_only",
        "network_mode=2g_only",
    ),
    "disconnect_vpn": ("vpn=connected", "vpn=poor"),
    "turn_wifi_calling_off": ("wifi_calling=on",),
    "grant_sms_permission": ("sms_permission=missing",),
    "grant_storage_permission": ("storage_permission=missing",),
    "resume_line": ("line_suspended",),
    "enable_roaming": ("line_roaming_off",),
    "refuel_data": ("out_of_data",),
}
"""Each fix -> the facts (any of them) that show what it fixes is broken."""


def broken(fix: str, on: Callable[[str], bool]) -> bool:
    """Whether the facts show what `fix` changes is broken (True for fixes not in `BROKEN`).

    The APN reset: a broken APN or a missing MMSC URL, unless a reset is already pending.
    The refuel: out of data, and less than the policy's 2 GB bought this cycle.
    """
    if fix == "reset_apn_settings":
        pending = on("apn_reset=pending") or on("apn_reset=done")
        return not pending and (on("apn_name=broken") or on("mmsc_url=missing"))
    if fix == "refuel_data" and on("refuel_spent"):
        return False
    facts = BROKEN.get(fix)
    return facts is None or any(on(fact) for fact in facts)


class ManualPolicy:
    """The manual as a template policy: ``policy(features, mask) -> template index``.

    Args:
        feature_names: The featurizer's feature names (`FeaturizedEnv.feature_names`).
        template_names: The templates, by action index (`FeaturizedEnv.template_names`).
    """

    def __init__(self, feature_names: Sequence[str], template_names: Sequence[str]) -> None:
        self.feature = {name: index for index, name in enumerate(feature_names)}
        self.template = {name: index for index, name in enumerate(template_names)}
        needed = {"transfer", "end", *_IDENTIFY, *CHECK_FACTS}
        needed |= {fix for fixes in PATH_FIXES.values() for fix in fixes}
        missing = needed - set(self.template)
        if missing:
            raise ValueError(f"templates missing for the manual policy: {sorted(missing)}")
        self.intents = [(i, self.feature[f"intent={i}"]) for i in ("service", "mobile_data", "mms")]
        self.values = {
            fact: [i for name, i in self.feature.items() if name.startswith(f"{fact}=")]
            for facts in CHECK_FACTS.values()
            for fact in facts
        }

    def __call__(self, features: NDArray[np.float32], mask: NDArray[np.bool_]) -> int:
        """The next template."""
        set_features = set(np.flatnonzero(features).tolist())
        applicable = set(np.flatnonzero(mask).tolist())

        def on(name: str) -> bool:
            if name == "refuel_spent":
                return bool(features[self.feature["data_refueled"]] >= 1.0)
            index = self.feature.get(name)
            return index is not None and index in set_features

        def can(name: str) -> bool:
            return self.template[name] in applicable

        def known(fact: str) -> bool:
            return not set_features.isdisjoint(self.values[fact])

        intent = next((i for i, at in self.intents if at in set_features), "service")
        for name in _IDENTIFY:
            if can(name) and not (name == "ask_location" and intent == "service"):
                return self.template[name]
        for check in PATH_CHECKS[intent]:
            if can(check) and not all(known(fact) for fact in CHECK_FACTS[check]):
                return self.template[check]
        for fix in PATH_FIXES[intent]:
            if can(fix) and broken(fix, on) and self._needed(fix, intent, on):
                return self.template[fix]
        rebooted = on("taken:reboot_device") and not on("changed_since_reboot")
        resumed = on("taken:resume_line") and not on("taken:reboot_device")
        if can("reboot_device") and not rebooted and (on("apn_reset=pending") or resumed):
            return self.template["reboot_device"]
        if (
            on("sim=locked")
            or (on("line_suspended") and on("contract_ended"))
            or (intent != "service" and on("out_of_data") and on("refuel_spent"))
        ):
            return self.template["transfer"]
        return self.template["end"]

    @staticmethod
    def _needed(fix: str, intent: str, on: Callable[[str], bool]) -> bool:
        """Whether an applicable fix is on the path (the mask says its fact is broken)."""
        if fix in ("turn_data_roaming_on", "enable_roaming"):
            return on("abroad")
        if fix in ("send_payment_request", "resume_line"):
            return not on("contract_ended")
        if fix == "set_network_mode_4g_5g" and intent == "mms":
            return on("network_mode=2g_only")
        if fix == "disconnect_vpn":
            return on("vpn=poor")
        if fix == "reset_apn_settings":
            return on("mmsc_url=missing") if intent == "mms" else on("apn_name=broken")
        return True
