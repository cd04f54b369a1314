"""The catalogue of issues: how each one breaks the world, how it is fixed, what proves it.

An `Issue` is one thing wrong with a customer's phone or line. ``breaks`` lists the setup calls
that cause it, ``fixes`` the gold steps (agent and user tool calls) that repair it, or None when
no agent can repair it (the right outcome is then a transfer to a human), and ``checks`` any
assertion that must hold after the fix besides the intent's own. Issues that cannot occur
together are grouped in one `SelectionSet`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from tau_env.domains.telecom.tasks.scenario import Scenario
from tau_env.messages import Requestor
from tau_env.tasks.model import EnvAssertion, EnvFunctionCall

__all__ = ["ISSUES", "Issue", "SelectionSet", "Step"]

Step = tuple[Requestor, str, dict[str, object]]
"""One gold step: (who calls it, tool name, arguments)."""

Breaks = Callable[[Scenario], list[EnvFunctionCall]]
Fixes = Callable[[Scenario], list[Step]]
Checks = Callable[[Scenario], list[EnvAssertion]]


def _no_checks(scenario: Scenario) -> list[EnvAssertion]:
    return []


@dataclass(frozen=True)
class Issue:
    """One composable problem.

    Attributes:
        name: Identifier used in task ids (the reference's names where it has the issue).
        summary: One line for reviewers, in our words.
        breaks: Setup calls that cause the problem.
        fixes: Gold steps that repair it; None when only a human agent can.
        checks: Extra assertions that must hold once it is repaired.
        abroad: The user is travelling (roaming issues).
        offer: What the user must accept for the fix (``"payment"``, ``"refuel"``), if anything.
    """

    name: str
    summary: str
    breaks: Breaks
    fixes: Fixes | None
    checks: Checks = _no_checks
    abroad: bool = False
    offer: str | None = None

    @property
    def fixable(self) -> bool:
        """False when the task must end with a transfer."""
        return self.fixes is not None


@dataclass(frozen=True)
class SelectionSet:
    """Issues that exclude each other; a composed task takes at most one of them."""

    issues: tuple[Issue, ...] = field(default_factory=tuple)


def _user(name: str, **arguments: object) -> EnvFunctionCall:
    return EnvFunctionCall(env_type="user", func_name=name, arguments=arguments)


def _agent(name: str, **arguments: object) -> EnvFunctionCall:
    return EnvFunctionCall(env_type="assistant", func_name=name, arguments=arguments)


def _user_steps(*names: str) -> Fixes:
    return lambda scenario: [("user", name, {}) for name in names]


def _phone_issue(
    name: str, summary: str, fixes: Fixes | None, tool_name: str, **arguments: object
) -> Issue:
    """An issue caused by one call of the user's own tool ``tool_name`` (a phone setting)."""
    return Issue(
        name=name,
        summary=summary,
        breaks=lambda s: [_user(tool_name, **arguments)],
        fixes=fixes,
    )


# -- no service ----------------------------------------------------------------------------------

AIRPLANE_MODE_ON = _phone_issue(
    "airplane_mode_on",
    "Airplane mode was left on.",
    _user_steps("toggle_airplane_mode"),
    "turn_airplane_mode_on",
)
UNSEAT_SIM_CARD = _phone_issue(
    "unseat_sim_card",
    "The SIM card is not seated properly.",
    _user_steps("reseat_sim_card"),
    "unseat_sim_card",
)
LOCK_SIM_CARD_PIN = _phone_issue(
    "lock_sim_card_pin",
    "The SIM card is PIN-locked; only a human agent can help.",
    None,
    "lock_sim_card",
    mode="pin",
)
LOCK_SIM_CARD_PUK = _phone_issue(
    "lock_sim_card_puk",
    "The SIM card is PUK-locked; only a human agent can help.",
    None,
    "lock_sim_card",
    mode="puk",
)
BREAK_APN_SETTINGS = _phone_issue(
    "break_apn_settings",
    "The data APN is broken; resetting it takes effect at the next reboot.",
    _user_steps("reset_apn_settings", "reboot_device"),
    "break_apn_settings",
)


def _suspend(contract_ended: bool) -> Breaks:
    def breaks(s: Scenario) -> list[EnvFunctionCall]:
        return [
            _agent(
                "suspend_line_for_overdue_bill",
                customer_id=s.customer_id,
                line_id=s.line_id,
                new_bill_id=s.overdue_bill_id,
                contract_ended=contract_ended,
            ),
            _user("simulate_network_search"),
        ]

    return breaks


def _pay_and_resume(s: Scenario) -> list[Step]:
    return [
        (
            "assistant",
            "send_payment_request",
            {"customer_id": s.customer_id, "bill_id": s.overdue_bill_id},
        ),
        ("user", "make_payment", {}),
        ("assistant", "resume_line", dict(s.line_args)),
        ("user", "reboot_device", {}),
    ]


OVERDUE_BILL_SUSPENSION = Issue(
    name="overdue_bill_suspension",
    summary="The line is suspended over an unpaid bill; paying it allows resuming the line.",
    breaks=_suspend(contract_ended=False),
    fixes=_pay_and_resume,
    offer="payment",
)
CONTRACT_END_SUSPENSION = Issue(
    name="contract_end_suspension",
    summary="The line is suspended and its contract has ended: the policy forbids resuming it.",
    breaks=_suspend(contract_ended=True),
    fixes=None,
)

# -- mobile data ---------------------------------------------------------------------------------


def _roaming(line_allows: bool, phone_allows: bool) -> Breaks:
    def breaks(s: Scenario) -> list[EnvFunctionCall]:
        calls = [
            _user("set_user_location", abroad=True),
            _user("turn_roaming_on" if phone_allows else "turn_roaming_off"),
            _agent("enable_roaming" if line_allows else "disable_roaming", **s.line_args),
        ]
        if not line_allows:
            calls.append(_user("simulate_network_search"))
        return calls

    return breaks


def _enable_line_roaming(s: Scenario) -> list[Step]:
    return [("assistant", "enable_roaming", dict(s.line_args))]


ROAMING_PHONE_OFF = Issue(
    name="user_abroad_roaming_enabled_off",
    summary="Abroad; the line allows roaming but the phone's roaming switch is off.",
    breaks=_roaming(line_allows=True, phone_allows=False),
    fixes=_user_steps("toggle_roaming"),
    abroad=True,
)
ROAMING_LINE_OFF = Issue(
    name="user_abroad_roaming_disabled_on",
    summary="Abroad; the phone allows roaming but the line does not.",
    breaks=_roaming(line_allows=False, phone_allows=True),
    fixes=_enable_line_roaming,
    abroad=True,
)
ROAMING_BOTH_OFF = Issue(
    name="user_abroad_roaming_disabled_off",
    summary="Abroad; neither the line nor the phone allows roaming.",
    breaks=_roaming(line_allows=False, phone_allows=False),
    fixes=lambda s: [*_enable_line_roaming(s), ("user", "toggle_roaming", {})],
    abroad=True,
)
DATA_MODE_OFF = _phone_issue(
    "data_mode_off",
    "The phone's mobile data switch is off.",
    _user_steps("toggle_data"),
    "turn_data_off",
)
DATA_SAVER_MODE_ON = _phone_issue(
    "data_saver_mode_on",
    "Data saver is on, which slows data five times.",
    _user_steps("toggle_data_saver_mode"),
    "turn_data_saver_mode_on",
)
BAD_NETWORK_PREFERENCE = _phone_issue(
    "bad_network_preference",
    "The phone is set to use 2G only.",
    lambda s: [("user", "set_network_mode_preference", {"mode": "4g_5g_preferred"})],
    "set_network_mode_preference",
    mode="2g_only",
)
BAD_VPN = _phone_issue(
    "bad_vpn",
    "A VPN through a poor server slows data ten times.",
    _user_steps("disconnect_vpn"),
    "break_vpn",
)


def _usage_over(extra_refuel: float) -> Breaks:
    def breaks(s: Scenario) -> list[EnvFunctionCall]:
        calls = []
        if extra_refuel:
            calls.append(_agent("refuel_data", **s.line_args, gb_amount=extra_refuel))
        used = round(s.data_limit_gb + s.refueled_gb + extra_refuel + 0.1, 2)
        calls.append(_agent("set_data_usage", **s.line_args, data_used_gb=used))
        return calls

    return breaks


def _refuel_check(s: Scenario) -> list[EnvAssertion]:
    return [
        EnvAssertion(
            env_type="assistant",
            func_name="assert_data_refueling_amount",
            arguments={**s.line_args, "expected_amount": s.refueled_gb + 2.0},
        )
    ]


DATA_USAGE_EXCEEDED = Issue(
    name="data_usage_exceeded",
    summary="The line used all its data; buying 2 GB more restores it.",
    breaks=_usage_over(0.0),
    fixes=lambda s: [("assistant", "refuel_data", {**s.line_args, "gb_amount": 2.0})],
    checks=_refuel_check,
    offer="refuel",
)
DATA_USAGE_EXCEEDED_NO_REFUEL = Issue(
    name="data_usage_exceeded_no_refuel",
    summary="The line used all its data even after 2 GB were bought; only a plan change helps.",
    breaks=_usage_over(2.0),
    fixes=None,
)

# -- MMS -----------------------------------------------------------------------------------------

BAD_WIFI_CALLING = _phone_issue(
    "bad_wifi_calling",
    "Wi-Fi calling sends MMS over Wi-Fi, which the carrier does not support.",
    _user_steps("toggle_wifi_calling"),
    "set_wifi_calling",
    enabled=True,
    mms_over_wifi=True,
)
BREAK_APN_MMS_SETTING = _phone_issue(
    "break_apn_mms_setting",
    "The MMS centre address is missing from the APN settings.",
    _user_steps("reset_apn_settings", "reboot_device"),
    "break_apn_mms_setting",
)


def _permissions(*names: str) -> tuple[Breaks, Fixes]:
    def breaks(s: Scenario) -> list[EnvFunctionCall]:
        return [_user("remove_app_permission", app_name="messaging", permission=n) for n in names]

    def fixes(s: Scenario) -> list[Step]:
        return [
            ("user", "grant_app_permission", {"app_name": "messaging", "permission": n})
            for n in names
        ]

    return breaks, fixes


_SMS, _STORAGE, _BOTH = _permissions("sms"), _permissions("storage"), _permissions("sms", "storage")
BREAK_APP_SMS_PERMISSION = Issue(
    name="break_app_sms_permission",
    summary="The messaging app lost its SMS permission.",
    breaks=_SMS[0],
    fixes=_SMS[1],
)
BREAK_APP_STORAGE_PERMISSION = Issue(
    name="break_app_storage_permission",
    summary="The messaging app lost its storage permission.",
    breaks=_STORAGE[0],
    fixes=_STORAGE[1],
)
BREAK_APP_BOTH_PERMISSIONS = Issue(
    name="break_app_both_permissions",
    summary="The messaging app lost its SMS and storage permissions.",
    breaks=_BOTH[0],
    fixes=_BOTH[1],
)

ISSUES: dict[str, Issue] = {
    issue.name: issue
    for issue in (
        AIRPLANE_MODE_ON,
        UNSEAT_SIM_CARD,
        LOCK_SIM_CARD_PIN,
        LOCK_SIM_CARD_PUK,
        BREAK_APN_SETTINGS,
        OVERDUE_BILL_SUSPENSION,
        CONTRACT_END_SUSPENSION,
        ROAMING_PHONE_OFF,
        ROAMING_LINE_OFF,
        ROAMING_BOTH_OFF,
        DATA_MODE_OFF,
        DATA_SAVER_MODE_ON,
        BAD_NETWORK_PREFERENCE,
        BAD_VPN,
        DATA_USAGE_EXCEEDED,
        DATA_USAGE_EXCEEDED_NO_REFUEL,
        BAD_WIFI_CALLING,
        BREAK_APN_MMS_SETTING,
        BREAK_APP_SMS_PERMISSION,
        BREAK_APP_STORAGE_PERMISSION,
        BREAK_APP_BOTH_PERMISSIONS,
    )
}
"""Every issue, by name."""
