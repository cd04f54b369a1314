"""What the scripted user needs to know about telecom: scenario phrases and phone words.

Scenario phrases (`ScenarioVocabulary`): how a scenario says when the problem counts as solved
(a goal check on the phone: signal in the status bar, an excellent speed test, MMS sent), what
the user accepts (buying up to 2 GB of data, paying a bill) and refuses (a plan change). Both
the reference's scenarios and ours say these things in a few regular ways.

Phone words (`ReportLexicon`): how a user retells what their phone showed in their own words
(status icons, switch states, speed-test results), which check a novice runs instead of the
change asked for, and which status icons a novice may misread.
"""

from __future__ import annotations

from tau_env.tasks.model import GoalCheck
from tau_env.tasks.scenario_reading import ScenarioVocabulary
from tau_env.tasks.user_vocabulary import ReportLexicon, UserVocabulary

__all__ = ["USER_VOCABULARY"]

_SOLVED = r"(?:solved|resolved)(?: only)? (?:once|when)[^.]*?"

SCENARIO = ScenarioVocabulary(
    goal_checks=(
        (
            _SOLVED + r"status bar shows (?:that you have )?signal",
            GoalCheck(tool="check_status_bar", expect="📶"),
        ),
        (
            _SOLVED + r"speed test (?:returns|reports|shows) excellent",
            GoalCheck(tool="run_speed_test", expect="(Excellent)"),
        ),
        (
            r"want to fix it and successfully send an MMS|" + _SOLVED + r"can send MMS",
            GoalCheck(tool="can_send_mms", expect="app can send MMS"),
        ),
    ),
    offers=(
        (r"willing to refuel|agree to buy up to [\d.]+ ?GB", ("refuel", "data")),
        (r"asks you to pay (?:a|an|the) (?:overdue )?bill", ("pay", "payment", "bill")),
    ),
    declines=(
        (
            r"(?:do not|don't) want to change your (?:mobile data )?plan|refuse any change of plan",
            ("plan",),
        ),
    ),
)

_SWITCHES = (
    (
        r"Airplane Mode(?: is now|:) (ON|OFF)\.?",
        ("airplane mode is {on:1}", "airplane mode: {on:1}"),
    ),
    (
        r"Mobile Data (?:Enabled:|is now) (Yes|No|ON|OFF)\.?",
        ("mobile data is {on:1}", "mobile data: {on:1}"),
    ),
    (
        r"Data Roaming (?:Enabled:|is now) (Yes|No|ON|OFF)\.?",
        ("data roaming is {on:1}", "roaming: {on:1}"),
    ),
    (
        r"Data Saver [Mm]ode is (?:now )?(ON|OFF)(?: \(limits data usage\))?\.",
        ("data saver is {on:1}", "data saver mode: {on:1}"),
    ),
    (
        r"Wi-Fi Calling is (?:currently turned|now) (ON|OFF)\.",
        ("wi-fi calling is {on:1}", "wifi calling: {on:1}"),
    ),
    (r"Wi-Fi Radio: (ON|OFF)", ("wi-fi is {on:1}",)),
    (r"Wi-Fi is now (ON|OFF)\.", ("wi-fi is now {on:1}",)),
)

LEXICON = ReportLexicon(
    lines=(
        *_SWITCHES,
        (r"Status Bar: (.*)", ("the status bar shows {1}", "at the top of my screen I see {1}")),
        (r"SIM Card Status: (\w+)", ("the SIM card status is {1}", "SIM: {1}")),
        (r"Cellular Connection: (\w+)", ("the cellular connection is {1}", "connection: {1}")),
        (r"Cellular Signal: (\w+)", ("the signal is {1}", "signal strength: {1}")),
        (r"Cellular Network Type: (\w+)", ("the network type is {1}", "network: {1}")),
        (r"Wi-Fi Connected: (Yes|No)", ("wi-fi connected: {1}",)),
        (
            r"(?:Network Mode Preference|Preferred Network Mode set to): (\w+)",
            ("the preferred network mode is {1}", "network mode: {1}"),
        ),
        (
            r"Speed Test Result: ([\d.]+) Mbps \(([A-Za-z ]+)\)\..*",
            ("the speed test says {1} Mbps, {2}", "speed test: {1} Mbps ({2})"),
        ),
        (r"Speed test failed: (.*?)\.?", ("the speed test failed, it says {1}",)),
        (r"Your SIM card is active and working\.", ("the SIM card is active and working",)),
        (r"No SIM card detected in the phone\.", ("it says no SIM card is detected",)),
        (
            r"The SIM card is locked with a (PIN|PUK) code\.",
            ("the SIM card is locked, it asks for a {1} code",),
        ),
        (r"SIM card re-seated successfully\.", ("the SIM card is back in place",)),
        (r"Current APN Name: (.*)", ("the APN name is {1}", "APN name: {1}")),
        (
            r"MMSC URL \(for picture messages\): (.*)",
            ("the MMSC URL is {1}", "the MMS centre address is {1}"),
        ),
        (r"\(These are technical settings, usually best left unchanged\.\)", ("",)),
        (
            r"APN settings will reset at reboot\.",
            ("it says the APN settings will reset when I restart",),
        ),
        (r"Resetting APN settings\.\.\.", ("it said it was resetting the APN settings",)),
        (r"Restarting network services\.\.\.", ("it restarted",)),
        (
            r"VPN is ON and connected\. Details: .*PerformanceLevel\.(\w+).*",
            (
                "the VPN is on and connected, server performance {1}",
                "a VPN is connected and its performance is {1}",
            ),
        ),
        (
            r"VPN is turned ON in settings, but currently not connected\.",
            ("the VPN is on in settings but not connected",),
        ),
        (r"VPN is turned OFF\.", ("the VPN is off", "no VPN is on")),
        (r"VPN disconnected successfully\.", ("the VPN is disconnected now",)),
        (r"No active VPN connection to disconnect\.", ("there was no VPN connected",)),
        (
            r"App 'messaging' has permission for: (.*)\.",
            ("the messaging app has permission for {1}", "messaging app permissions: {1}"),
        ),
        (
            r"App 'messaging' currently has no permissions granted\.",
            ("the messaging app has no permissions at all",),
        ),
        (
            r"Success\. Permission '(\w+)' granted to app 'messaging'\.",
            (
                "the messaging app now has the {1} permission",
                "{1} permission granted for messaging",
            ),
        ),
        (
            r"Your messaging app can send MMS messages\.",
            ("my messaging app can send MMS messages", "it says picture messages can be sent"),
        ),
        (
            r"Your messaging app cannot send MMS messages\.",
            ("my messaging app cannot send MMS messages", "it says it can't send picture messages"),
        ),
        (
            r"Payment of ([\d.]+) USD has been made for bill (\w+)\.",
            ("I paid {1} USD for bill {2}", "the payment of {1} USD for bill {2} went through"),
        ),
        (
            r"You have a payment request for bill (\w+) of ([\d.]+) USD\.",
            ("there's a payment request for bill {1} of {2} USD",),
        ),
        (r"No payment request has been made\.", ("I don't see any payment request",)),
    ),
    tokens=(
        ("✈️ Airplane Mode", ("an airplane icon", "the airplane mode icon")),
        ("📵 No Signal", ("no signal", "no bars at all")),
        ("📶¹ Poor", ("one bar of signal", "1 bar, poor signal")),
        ("📶² Fair", ("two bars of signal", "2 bars, fair signal")),
        ("📶³ Good", ("three bars of signal", "3 bars, good signal")),
        ("📶⁴ Excellent", ("four bars of signal", "full bars, excellent signal")),
        ("📱 Data Enabled", ("the mobile data icon", "mobile data on")),
        ("📵 Data Disabled", ("mobile data off", "a crossed-out data icon")),
        ("🔽 Data Saver", ("the data saver arrow", "data saver on")),
        ("🔒 VPN Connected", ("a VPN lock", "VPN connected")),
        ("📡 Enabled", ("wi-fi on",)),
        ("🔋", ("battery",)),
        (" | ", (", ",)),
        ("4g_5g_preferred", ("4G/5G preferred", "4g/5g preferred")),
        ("4g_only", ("4G only",)),
        ("3g_only", ("3G only",)),
        ("2g_only", ("2G only", "2g only")),
        ("Not Set", ("not set", "empty")),
        ("POOR", ("poor",)),
        ("FAIR", ("fair",)),
        ("GOOD", ("good",)),
        ("EXCELLENT", ("excellent",)),
        ("UNKNOWN", ("unknown",)),
    ),
    tool_phrases=(
        ("check_status_bar", ("I looked at the top of my screen", "I checked the status bar")),
        (
            "check_network_status",
            ("I opened the network status", "I looked at my network settings"),
        ),
        ("check_network_mode_preference", ("I checked the network mode",)),
        ("run_speed_test", ("I ran a speed test", "I did the speed test")),
        ("check_sim_status", ("I checked the SIM card",)),
        ("check_data_restriction_status", ("I checked data saver",)),
        ("check_apn_settings", ("I looked at the APN settings",)),
        ("check_wifi_calling_status", ("I checked wi-fi calling",)),
        ("check_vpn_status", ("I checked the VPN",)),
        ("check_app_permissions", ("I checked the app's permissions",)),
        ("can_send_mms", ("I tried sending a picture message", "I checked whether MMS works")),
        ("check_payment_request", ("I looked for a payment request",)),
        ("toggle_airplane_mode", ("I flipped the airplane mode switch", "I toggled airplane mode")),
        ("toggle_data", ("I flipped the mobile data switch", "I toggled mobile data")),
        ("toggle_roaming", ("I flipped the data roaming switch", "I toggled roaming")),
        ("toggle_data_saver_mode", ("I toggled data saver",)),
        ("toggle_wifi_calling", ("I toggled wi-fi calling",)),
        ("set_network_mode_preference", ("I changed the network mode",)),
        ("reset_apn_settings", ("I reset the APN settings",)),
        ("reboot_device", ("I restarted the phone", "I turned the phone off and on again")),
        ("reseat_sim_card", ("I took the SIM card out and put it back",)),
        ("disconnect_vpn", ("I disconnected the VPN",)),
        ("grant_app_permission", ("I changed the app's permissions",)),
        ("make_payment", ("I opened the payment request",)),
    ),
    neighbours=(
        ("toggle_airplane_mode", "check_network_status"),
        ("toggle_data", "check_network_status"),
        ("toggle_roaming", "check_network_status"),
        ("toggle_data_saver_mode", "check_data_restriction_status"),
        ("set_network_mode_preference", "check_network_mode_preference"),
        ("reset_apn_settings", "check_apn_settings"),
        ("toggle_wifi_calling", "check_wifi_calling_status"),
        ("disconnect_vpn", "check_vpn_status"),
        ("grant_app_permission", "check_app_permissions"),
        ("reseat_sim_card", "check_sim_status"),
        ("reboot_device", "check_status_bar"),
        ("make_payment", "check_payment_request"),
    ),
    misreads=(
        ("📶⁴ Excellent", "📶³ Good"),
        ("📶³ Good", "📶² Fair"),
        ("📶² Fair", "📶¹ Poor"),
        ("📶¹ Poor", "📶² Fair"),
    ),
)

USER_VOCABULARY = UserVocabulary(scenario=SCENARIO, reports=LEXICON)
"""The telecom domain's `UserVocabulary`."""
