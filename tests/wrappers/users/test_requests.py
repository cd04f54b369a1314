"""The concept reader: requests as actions on objects, with the telecom lexicon."""

from __future__ import annotations

import pytest

import tau_env
from tau_env.domains.telecom.user_script import REQUESTS
from tau_env.tasks.user_vocabulary import RequestLexicon, ToolWords
from tau_env.wrappers.users.matcher import sentences
from tau_env.wrappers.users.requests import reader_for

TOOLS = tuple(
    t["function"]["name"]
    for t in tau_env.load_domain("telecom").toolbox.tools("user").openai_schemas()
)
READER = reader_for(REQUESTS, TOOLS)


def read(text):
    reading = READER.read(sentences(text))
    return [call.name for call in reading.calls], reading.unclear


@pytest.mark.parametrize(
    ("text", "tools"),
    [
        ("Please tap the flight mode toggle once.", ["toggle_airplane_mode"]),
        ("Could you restore the default access point settings?", ["reset_apn_settings"]),
        ("Could you flip the mobile data switch?", ["toggle_data"]),
        ("Pop the SIM out and put it back in.", ["reseat_sim_card"]),
        ("Please power cycle your phone.", ["reboot_device"]),
        ("Could you turn off data saver?", ["toggle_data_saver_mode"]),  # not mobile data
    ],
)
def test_synonyms_and_verbs__name_the_tool(text, tools):
    assert read(text) == (tools, ())


def test_a_question_about_state__is_its_check():
    assert read("Is Wi-Fi on?") == (["check_wifi_status"], ())
    assert read("Is data roaming turned on?") == (["check_network_status"], ())
    assert read("Would you like me to refuel 2 GB of data?") == ([], ())  # an offer


def test_negations__leave_out_what_they_cover_to_the_end_of_the_clause():
    assert read("Don't restart your phone; just turn off airplane mode.")[0] == [
        "toggle_airplane_mode"
    ]
    assert read("There's no need to reset your APN settings.") == ([], ())
    assert read("Please leave Wi-Fi on, and turn off the VPN.")[0] == ["disconnect_vpn"]


def test_several_requests__in_the_order_asked():
    text = "Please do these steps:\n1. Turn off flight mode\n2. Reset your APN\n3. Restart"
    assert read(text)[0] == ["toggle_airplane_mode", "reset_apn_settings", "reboot_device"]
    assert read("Turn on mobile data and data roaming.")[0] == ["toggle_data", "toggle_roaming"]


def test_a_switch_asked_on_then_off__is_run_twice_once_otherwise():
    assert read("Turn airplane mode on, wait, then turn it off again.")[0] == [
        "toggle_airplane_mode",
        "toggle_airplane_mode",
    ]
    assert read("Tap the mobile data toggle to enable it.")[0] == ["toggle_data"]


def test_it__stands_for_the_thing_of_the_latest_clause_not_the_phone():
    text = "It looks like mobile data is off on your phone. Could you turn it on?"
    assert read(text)[0] == ["toggle_data"]


def test_the_agents_own_actions_remarks_and_conditions__ask_nothing():
    for text in [
        "I have enabled roaming on your line.",
        "Let me check your account.",
        "Mobile data looks fine.",
        "Roaming charges may apply while you are abroad.",
        "If that does not work, we will try something else.",
    ]:
        assert read(text) == ([], ()), text


def test_places_and_menu_paths__name_no_tool_of_their_own():
    assert read("Could you re-enable data on your phone?")[0] == ["toggle_data"]
    text = "Please go to Settings > Mobile network > Access Point Names and reset them."
    assert read(text)[0] == ["reset_apn_settings"]


def test_requests_it_cannot_do__are_not_understood_naming_the_thing():
    assert read("Please turn on Bluetooth.") == ([], ("",))
    assert read("Please clear the cache of the messaging app.") == ([], ("messaging app",))
    assert read("Could you calibrate your battery?") == ([], ("",))  # an unknown verb
    assert read("Could you tell me more about the problem?") == ([], ())  # the conversation's


def test_values__are_read_from_their_words_and_split_when_several():
    reading = READER.read(
        sentences("Please grant the messaging app the SMS and storage permissions.")
    )
    assert [dict(call.values) for call in reading.calls] == [
        {"app_name": "messaging", "permission": "sms"},
        {"app_name": "messaging", "permission": "storage"},
    ]
    reading = READER.read(sentences("Change the network mode from 2G only to 4G/5G preferred."))
    assert [dict(call.values) for call in reading.calls] == [{"mode": "4g_5g_preferred"}]


def test_a_domain_without_a_lexicon__is_read_by_its_tool_names():
    reader = reader_for(None, ("check_notifications", "dismiss_notification"))
    calls = reader.read(sentences("Please dismiss the notification.")).calls
    assert [call.name for call in calls] == ["dismiss_notification"]
    own = RequestLexicon(
        objects={"lamp": ("lamp", "light")},
        tools={"toggle_lamp": ToolWords(does=("switch_on", "switch_off"), on=("lamp",))},
    )
    assert [
        c.name for c in reader_for(own, ("toggle_lamp",)).read(["Switch the light on."]).calls
    ] == ["toggle_lamp"]


def test_it__after_switching_the_phone_off_in_its_sentence__is_the_phone():
    text = (
        "Can you switch airplane mode off for me? "
        "Please switch your phone off, wait 30 seconds, and switch it back on."
    )
    assert read(text)[0] == ["toggle_airplane_mode", "reboot_device"]
    assert read("Airplane mode blocks every radio on your phone, so make sure it's off.")[0] == [
        "toggle_airplane_mode"
    ]


def test_a_sentence_broken_off_and_taken_back__is_not_read():
    text = "It looks like mobile data is off. Could you turn it on? Please power off... actually, "
    text += "no need to power off. Just remove the SIM card and put it back in."
    assert read(text)[0] == ["toggle_data", "reseat_sim_card"]
    text = "Please restart your phone... Then check the status bar."  # nothing taken back
    assert read(text)[0] == ["reboot_device", "check_status_bar"]


def test_options_listed_after_a_colon__ask_nothing_of_their_own():
    text = "Could you check which network mode your phone is set to: 5G, 4G, 3G or 2G?"
    assert read(text) == (["check_network_mode_preference"], ())
    assert read("Quick check: is Wi-Fi on?") == (["check_wifi_status"], ())


def test_what_a_thing_is_set_to__is_asked_not_set():
    assert read("What is your preferred network type set to?") == (
        ["check_network_mode_preference"],
        (),
    )
    assert read("Please set your APN settings back to the carrier defaults.") == (
        ["reset_apn_settings"],
        (),
    )


def test_a_repeat_without_values_in_another_sentence__is_a_request_of_its_own():
    text = (
        "Your messaging app is missing the SMS permission. Could you grant it? "
        "The messaging app can't save pictures without storage access. "
        "Please grant it that permission."
    )
    assert read(text)[0] == ["grant_app_permission", "grant_app_permission"]
    text = "Please grant the messaging app the SMS permission. Please grant the SMS permission."
    assert read(text)[0] == ["grant_app_permission"]  # the same values: asked once
