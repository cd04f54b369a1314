"""The three task intents: what the user calls about, which issues can cause it, what "fixed" means.

Selection sets follow the reference's task families (service 5 sets, mobile data 7, MMS 9);
the texts the user and the solo agent read are written by tau_env.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tau_env.domains.telecom.tasks import issues as i
from tau_env.domains.telecom.tasks.issues import Issue, SelectionSet
from tau_env.domains.telecom.tasks.scenario import Scenario
from tau_env.tasks.model import EnvAssertion

__all__ = ["INTENTS", "MMS", "MOBILE_DATA", "SERVICE", "Intent"]

Choice = Sequence[Issue | None]


@dataclass(frozen=True)
class Intent:
    """One reason to call, with its issue families and its definition of success.

    Attributes:
        name: ``service_issue``, ``mobile_data_issue`` or ``mms_issue`` (task-id prefix).
        purpose: What the tasks test, for reviewers.
        selection_sets: Issue families; a task picks at most one issue from each.
        counts: Whether a choice (one entry per set, None = none) makes a task of this intent.
        reason: Why the user calls (second person, the user's brief).
        resolved_when: The user's criterion, in words (the scripted user reads its goal check
            from it, as an LLM user would).
        offer: What the user accepts if asked (``"payment"`` or ``"refuel"``).
        ticket: The No-User ticket, a template over name, phone and location.
    """

    name: str
    purpose: str
    selection_sets: tuple[SelectionSet, ...]
    counts: Callable[[Choice], bool]
    reason: str
    resolved_when: str
    offer: str
    ticket: str

    def success_assertions(self, scenario: Scenario) -> list[EnvAssertion]:
        """What must hold once every issue is fixed."""
        if self.name == "service_issue":
            return [
                _user("assert_service_status", expected_status="connected"),
                EnvAssertion(
                    env_type="assistant",
                    func_name="assert_no_overdue_bill",
                    arguments={"overdue_bill_id": scenario.overdue_bill_id},
                ),
            ]
        if self.name == "mobile_data_issue":
            return [
                _user("assert_mobile_data_status", expected_status=True),
                _user("assert_internet_speed", expected_speed=200, expected_desc="excellent"),
            ]
        return [_user("assert_can_send_mms", expected_status=True)]

    def failure_assertions(self) -> list[EnvAssertion]:
        """What must still hold when the issue could only be transferred (the goal unmet)."""
        if self.name == "service_issue":
            return [_user("assert_service_status", expected_status="no_service")]
        if self.name == "mobile_data_issue":
            return [
                _user("assert_mobile_data_status", expected_status=False),
                _user("assert_internet_speed", expected_speed=0),
            ]
        return [_user("assert_can_send_mms", expected_status=False)]


def _user(name: str, **arguments: object) -> EnvAssertion:
    return EnvAssertion(env_type="user", func_name=name, arguments=arguments)


def _one(*issues: Issue) -> SelectionSet:
    return SelectionSet(issues)


_AIRPLANE = _one(i.AIRPLANE_MODE_ON)
_SIM = _one(i.UNSEAT_SIM_CARD)
_ROAMING = _one(i.ROAMING_PHONE_OFF, i.ROAMING_LINE_OFF, i.ROAMING_BOTH_OFF)
_DATA_OFF = _one(i.DATA_MODE_OFF)
_USAGE = _one(i.DATA_USAGE_EXCEEDED, i.DATA_USAGE_EXCEEDED_NO_REFUEL)
_NETWORK_MODE = _one(i.BAD_NETWORK_PREFERENCE)

SERVICE = Intent(
    name="service_issue",
    purpose="Resolution path for a phone without service.",
    selection_sets=(
        _AIRPLANE,
        _SIM,
        _one(i.LOCK_SIM_CARD_PIN, i.LOCK_SIM_CARD_PUK),
        _one(i.BREAK_APN_SETTINGS),
        _one(i.OVERDUE_BILL_SUSPENSION, i.CONTRACT_END_SUSPENSION),
    ),
    counts=lambda choice: any(choice),
    reason=(
        "For a few hours your phone has shown 'No Service': you can neither call nor text, "
        "and nothing loads."
    ),
    resolved_when="the status bar shows signal bars again",
    offer="payment",
    ticket=(
        "Customer {name} (phone {phone_number}) has had no service for hours: no calls, no "
        "texts, no data; the status bar reads 'No Service'. They allow paying any overdue bill "
        "on the account. Done when the status bar shows signal again."
    ),
)

MOBILE_DATA = Intent(
    name="mobile_data_issue",
    purpose="Resolution path for missing or slow mobile data.",
    selection_sets=(
        _AIRPLANE,
        _ROAMING,
        _DATA_OFF,
        _one(i.DATA_SAVER_MODE_ON),
        _NETWORK_MODE,
        _one(i.BAD_VPN),
        _USAGE,
    ),
    counts=lambda choice: any(choice[1:]),  # airplane mode alone is a service problem
    reason=(
        "The mobile data on your phone is unusable: pages either never load or crawl. You need "
        "it fast again, and only an 'Excellent' speed test will do; 'Good', 'Fair' or 'Poor' "
        "is not acceptable. There is no Wi-Fi where you are."
    ),
    resolved_when="a speed test reports Excellent",
    offer="refuel",
    ticket=(
        "Customer {name} (phone {phone_number}, currently {location}) says mobile data is "
        "missing or very slow. Done when a speed test reports Excellent. They will buy up to "
        "2.0 GB of extra data if needed but will not change plan."
    ),
)

MMS = Intent(
    name="mms_issue",
    purpose="Resolution path for picture messages (MMS) that cannot be sent.",
    selection_sets=(
        _AIRPLANE,
        _SIM,
        _DATA_OFF,
        _USAGE,
        _ROAMING,
        _NETWORK_MODE,
        _one(i.BAD_WIFI_CALLING),
        _one(i.BREAK_APN_MMS_SETTING),
        _one(
            i.BREAK_APP_SMS_PERMISSION, i.BREAK_APP_STORAGE_PERMISSION, i.BREAK_APP_BOTH_PERMISSIONS
        ),
    ),
    counts=lambda choice: any(choice[5:]),  # needs a problem of the MMS path itself
    reason=(
        "Since a few hours ago your messaging app will not send picture messages (MMS). You "
        "want to be able to send them again."
    ),
    resolved_when="your phone says the messaging app can send MMS messages",
    offer="refuel",
    ticket=(
        "Customer {name} (phone {phone_number}, currently {location}) cannot send MMS from the "
        "messaging app. Done when MMS can be sent. They will buy up to 2.0 GB of extra data if "
        "needed but will not change plan."
    ),
)

INTENTS: dict[str, Intent] = {intent.name: intent for intent in (SERVICE, MOBILE_DATA, MMS)}
"""The intents by task-id prefix."""
