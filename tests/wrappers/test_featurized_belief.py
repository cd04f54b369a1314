"""TelecomBelief: reading the customer's reports and the agent's tool results into facts."""

import json
import random

import pytest

from tau_env.domains.telecom.user_script import USER_VOCABULARY
from tau_env.messages import ToolMessage
from tau_env.wrappers.rl.telecom_belief import TelecomBelief
from tau_env.wrappers.users.report import Reporter
from tau_env.wrappers.users.style import STYLES


def retold(tool, content, seed):
    """The same result as a paraphrasing user tells it (wording and casing drawn by `seed`)."""
    reporter = Reporter(STYLES["paraphrase"], USER_VOCABULARY.reports, random.Random(seed))
    message = ToolMessage(id="1", name=tool, content=content, requestor="user")
    return reporter.performed([message])


def report(*parts, probe=None):
    """A reply in the scripted user's words: each tool's result, then the failed goal check."""
    text = "I did that. " + " ".join(f"{tool} shows: {content}." for tool, content in parts)
    if probe:
        text += f" It is still not resolved: {probe[0]} shows: {probe[1]}."
    return text


@pytest.mark.parametrize(
    ("opening", "intent"),
    [
        ("My phone has said 'No Service' for a few hours now.", "service"),
        ("Hi, my mobile data is barely working.", "mobile_data"),
        ("I can't send picture messages from my messaging app.", "mms"),
        ("MY INTERNET IS SO SLOW", "mobile_data"),
    ],
)
def test_opening__names_the_intent(opening, intent):
    belief = TelecomBelief()
    belief.read_user_text(opening)
    assert belief.intent == intent


def test_goal_check__names_the_intent_when_the_opening_did_not():
    belief = TelecomBelief()
    belief.read_user_text("Hello, something is wrong.")
    assert belief.intent is None
    belief.read_user_text("I checked the SIM. It's still not working. The speed test failed.")
    assert belief.intent == "mobile_data" and belief.unresolved
    assert belief.device["speed"] == "failed"


def test_facts__phone_number_name_birth_date_and_location():
    belief = TelecomBelief()
    belief.read_user_text("Hi")
    belief.read_user_text("My phone number is 555-210-3003. My location is abroad in Kenya.")
    assert (belief.phone_number, belief.abroad) == ("555-210-3003", True)
    belief.read_user_text("My full name is Lena Fischer. My date of birth is 1984-06-17.")
    assert (belief.full_name, belief.birth_date) == ("Lena Fischer", "1984-06-17")
    belief.read_user_text("My location is at home in Portland, Oregon.")
    assert belief.abroad is False


BAR_CASES = [
    (
        "Status Bar: ✈️ Airplane Mode | 🔋 72%",
        {"airplane_mode": "on", "signal": "none", "vpn": "off"},
    ),
    (
        "Status Bar: 📶¹ Poor | 2G | 📵 Data Disabled | 🔒 VPN Connected | 🔋 72%",
        {
            "airplane_mode": "off",
            "signal": "some",
            "network_type": "2G",
            "mobile_data": "off",
            "vpn": "connected",
        },
    ),
    (
        "Status Bar: 📶⁴ Excellent | 5G | 📱 Data Enabled | 🔽 Data Saver | 🔋 72%",
        {
            "airplane_mode": "off",
            "signal": "some",
            "network_type": "5G",
            "mobile_data": "on",
            "data_saver": "on",
            "vpn": "off",
        },
    ),
    (
        # No network: "Data Disabled" says nothing about the data switch.
        "Status Bar: 📵 No Signal | 📵 Data Disabled | 🔋 72%",
        {"airplane_mode": "off", "signal": "none", "network_type": "none", "vpn": "off"},
    ),
]


@pytest.mark.parametrize(("bar", "expected"), BAR_CASES)
def test_status_bar__icons_become_facts_quoted_or_retold(bar, expected):
    quoted = TelecomBelief()
    quoted.read_user_text(report(("check_status_bar", bar)))
    assert quoted.device == expected
    for seed in range(8):  # paraphrased and recased in several ways: the same facts
        told = TelecomBelief()
        told.read_user_text(retold("check_status_bar", bar, seed))
        assert told.device == expected, retold("check_status_bar", bar, seed)


@pytest.mark.parametrize(
    "sentence",
    [
        "The status bar shows four bars, 5G, the mobile data icon and a VPN lock, battery 80%.",
        "at the top of my screen i see FOUR BARS, 5g, mobile data on, VPN connected, battery 80%",
        "Up top it says: full bars | 5G | Data Enabled | VPN Connected | battery 80%",
    ],
)
def test_status_bar__wordings_never_generated_by_the_user_are_read_too(sentence):
    belief = TelecomBelief()
    belief.read_user_text(sentence)
    assert belief.device == {
        "airplane_mode": "off",
        "vpn": "connected",
        "signal": "some",
        "network_type": "5G",
        "mobile_data": "on",
        "data_saver": "off",
    }


NETWORK_STATUS = (
    "Airplane Mode: OFF\nSIM Card Status: locked_puk\nCellular Connection: no_service\n"
    "Cellular Signal: none\nCellular Network Type: none\nMobile Data Enabled: Yes\n"
    "Data Roaming Enabled: No\nWi-Fi Radio: OFF\nWi-Fi Connected: No"
)
NETWORK_FACTS = {
    "airplane_mode": "off",
    "sim": "locked",
    "signal": "none",
    "network_type": "none",
    "mobile_data": "on",
    "data_roaming": "off",
}


def test_network_status__every_line_is_read_quoted_or_retold():
    belief = TelecomBelief()
    belief.read_user_text(report(("check_network_status", NETWORK_STATUS)))
    assert belief.device == NETWORK_FACTS
    for seed in range(8):
        told = TelecomBelief()
        told.read_user_text(retold("check_network_status", NETWORK_STATUS, seed))
        assert told.device == NETWORK_FACTS


def test_later_reports_win_within_one_message():
    belief = TelecomBelief()
    belief.read_user_text(
        report(
            ("check_network_status", "Airplane Mode: ON\nSIM Card Status: active"),
            (
                "toggle_airplane_mode",
                "Airplane Mode is now OFF.\nStatus Bar: 📵 No Signal | 🔋 72%",
            ),
        )
    )
    assert belief.device["airplane_mode"] == "off"


CHECKS = (
    (
        "check_vpn_status",
        "VPN is ON and connected. Details: {'server_address': "
        "'192.168.1.1', 'protocol': 'OpenVPN', 'server_performance': "
        "<PerformanceLevel.POOR: 'poor'>}",
    ),
    (
        "check_apn_settings",
        "Current APN Name: broken\nMMSC URL (for picture messages): "
        "Not Set\n(These are technical settings, usually best left unchanged.)",
    ),
    ("check_app_permissions", "App 'messaging' has permission for: storage, phone."),
    ("check_network_mode_preference", "Network Mode Preference: 2g_only"),
    ("check_wifi_calling_status", "Wi-Fi Calling is currently turned ON."),
    ("check_data_restriction_status", "Data Saver mode is ON (limits data usage)."),
    ("run_speed_test", "Speed Test Result: 12.50 Mbps (Fair). Browsing is slow."),
    ("can_send_mms", "Your messaging app cannot send MMS messages."),
)
CHECK_FACTS = {
    "vpn": "poor",
    "apn_name": "broken",
    "mmsc_url": "missing",
    "sms_permission": "missing",
    "storage_permission": "granted",
    "network_mode": "2g_only",
    "wifi_calling": "on",
    "data_saver": "on",
    "speed": "fair",
    "mms": "cannot_send",
}


def test_single_checks__quoted_or_retold():
    belief = TelecomBelief()
    belief.read_user_text(report(*CHECKS))
    assert belief.device == CHECK_FACTS
    for seed in range(8):
        told = TelecomBelief()
        for tool, content in CHECKS:
            told.read_user_text(retold(tool, content, seed))
        assert told.device == CHECK_FACTS


def test_apn_reset__pending_until_the_reboot_applies_it():
    belief = TelecomBelief()
    belief.read_user_text(report(("check_apn_settings", "Current APN Name: broken")))
    belief.read_user_text(report(("reset_apn_settings", "APN settings will reset at reboot.")))
    assert (belief.device["apn_reset"], belief.device["apn_name"]) == ("pending", "broken")
    belief.read_user_text(
        report(("reboot_device", "Resetting APN settings...\nRestarting network services..."))
    )
    assert "apn_reset" not in belief.device
    assert (belief.device["apn_name"], belief.device["mmsc_url"]) == ("ok", "set")


def test_reseat__forgets_the_sim_state():
    belief = TelecomBelief()
    belief.read_user_text(report(("check_sim_status", "No SIM card detected in the phone.")))
    belief.read_user_text(report(("reseat_sim_card", "SIM card re-seated successfully.")))
    assert "sim" not in belief.device


def test_an_action_without_a_state__states_nothing_and_a_mistake_is_noticed():
    belief = TelecomBelief()
    belief.read_user_text("I flipped the airplane mode switch. I restarted the phone.")
    assert belief.device == {} and not belief.not_followed
    belief.read_user_text(
        "I wasn't sure how to do that, so I did this instead: airplane mode is on."
    )
    assert belief.not_followed and belief.device == {"airplane_mode": "on"}


def test_tool_results__customer_line_bills_usage():
    belief = TelecomBelief()
    belief.read_instructions("You are a support agent. The current time is 2025-02-25 12:08 EST.")
    belief.phone_number = "555 210 3004"
    customer = {"customer_id": "C2003", "line_ids": ["L2004", "L2005"]}
    belief.read_tool_result("get_customer_by_phone", json.dumps(customer), error=False)
    assert belief.candidate_lines == ["L2004", "L2005"]
    other = {"line_id": "L2005", "phone_number": "555-210-3005", "status": "Active"}
    belief.read_tool_result("get_details_by_id", json.dumps(other), error=False)
    assert belief.line_id is None and belief.candidate_lines == ["L2004"]
    own = {
        "line_id": "L2004",
        "phone_number": "555-210-3004",
        "status": "Suspended",
        "roaming_enabled": False,
        "contract_end_date": "2025-01-31",
    }
    belief.read_tool_result("get_details_by_id", json.dumps(own), error=False)
    assert (belief.line_id, belief.line_suspended, belief.line_roaming) == ("L2004", True, False)
    assert belief.contract_ended is True
    bills = [{"bill_id": "B1", "status": "Paid"}, {"bill_id": "B9", "status": "Overdue"}]
    belief.read_tool_result("get_bills_for_customer", json.dumps(bills), error=False)
    assert belief.overdue_bill_id == "B9"
    usage = {"data_used_gb": "22.7", "data_limit_gb": "21.0", "data_refueling_gb": "0.0"}
    belief.read_tool_result("get_data_usage", json.dumps(usage), error=False)
    assert belief.out_of_data is True
    belief.read_tool_result("refuel_data", json.dumps({"new_data_refueling_gb": 2.0}), False)
    assert belief.out_of_data is False


def test_tool_errors__are_counted_and_change_nothing():
    belief = TelecomBelief()
    belief.read_tool_result("get_customer_by_phone", "Error: Customer not found", error=True)
    assert (belief.customer_id, belief.tool_errors) == (None, 1)


def test_unknown_fact_values__are_rejected():
    with pytest.raises(ValueError, match="airplane_mode cannot be 'maybe'"):
        TelecomBelief().set_fact("airplane_mode", "maybe")
