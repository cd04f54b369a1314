import pytest

from tau_env.wrappers.users.matcher import (
    announces_transfer,
    asked_facts,
    claims_done,
    offer_decision,
    refuses,
    requested_calls,
)


def schema(name, **params):
    """An OpenAI function schema; a param given as a list is an enum."""
    properties = {
        key: ({"type": "string", "enum": value} if isinstance(value, list) else {"type": "string"})
        for key, value in params.items()
    }
    return {
        "type": "function",
        "function": {
            "name": name,
            "parameters": {"type": "object", "properties": properties, "required": list(params)},
        },
    }


# Device tools shaped like telecom's (names and arguments), to test the matcher domain-free.
PHONE = [
    schema("check_status_bar"),
    schema("check_network_status"),
    schema("run_speed_test"),
    schema("toggle_airplane_mode"),
    schema("toggle_data"),
    schema("toggle_data_saver_mode"),
    schema("toggle_roaming"),
    schema("reboot_device"),
    schema("reseat_sim_card"),
    schema("connect_vpn"),
    schema("disconnect_vpn"),
    schema("set_network_mode_preference", mode=["2g_only", "3g_only", "4g_5g_preferred"]),
    schema("can_send_mms"),
    schema("make_payment"),
]
INBOX = [schema("check_notifications"), schema("dismiss_notification", notification_id=None)]


def names(text, tools=PHONE, facts=None):
    return [call.name for call in requested_calls(text, tools, facts)]


def test_call_syntax__is_taken_literally_with_bare_or_quoted_values():
    calls = requested_calls(
        "Please do:\n- dismiss_notification(notification_id=notif_1)\n- check_notifications()",
        INBOX,
    )
    assert [(c.name, c.arguments) for c in calls] == [
        ("dismiss_notification", {"notification_id": "notif_1"}),
        ("check_notifications", {}),
    ]
    quoted = requested_calls('dismiss_notification(notification_id="n 2")', INBOX)
    assert quoted[0].arguments == {"notification_id": "n 2"}


def test_call_syntax__ignores_names_that_are_not_user_tools():
    assert names("I ran update_task_status(task_id=task_1) for you.", INBOX) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Please turn off airplane mode.", ["toggle_airplane_mode"]),
        ("Could you restart your phone?", ["reboot_device"]),
        ("Can you run a speed test?", ["run_speed_test"]),
        ("What does your status bar show?", ["check_status_bar"]),
        ("Please turn off Data Saver mode.", ["toggle_data_saver_mode"]),
        ("Turn your mobile data on, then reboot the device.", ["toggle_data", "reboot_device"]),
        ("Please disconnect from the VPN.", ["disconnect_vpn"]),
        ("Remove and reinsert your SIM card.", ["reseat_sim_card"]),
        ("Could you try to send an MMS?", ["can_send_mms"]),
        ("Please make the payment now.", ["make_payment"]),
    ],
)
def test_phrases__request_the_tool_whose_verb_and_nouns_appear(text, expected):
    assert names(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Is airplane mode on?",  # a question about state toggles nothing
        "Don't turn off airplane mode.",  # negation
        "I have checked your account.",  # no tool nouns
    ],
)
def test_phrases__do_not_fire_on_questions_negations_or_unrelated_text(text):
    assert names(text) == []


def test_phrases__fill_enum_arguments_from_the_text():
    (call,) = requested_calls("Please set your network mode to 4G/5G preferred.", PHONE)
    assert call.name == "set_network_mode_preference"
    assert call.arguments == {"mode": "4g_5g_preferred"}


def test_phrases__fill_ids_from_the_text_or_the_facts_and_report_missing_ones():
    (call,) = requested_calls("Please dismiss notification notif_3.", INBOX)
    assert call.arguments == {"notification_id": "notif_3"} and not call.missing
    (known,) = requested_calls(
        "Please dismiss the notification.", INBOX, {"notification_id": "notif_1"}
    )
    assert known.arguments == {"notification_id": "notif_1"}
    (unknown,) = requested_calls("Please dismiss the notification.", INBOX)
    assert unknown.missing == ("notification_id",)


def test_facts__are_matched_by_every_word_of_the_key_with_synonyms():
    keys = ["user_id", "task_id", "zip", "email", "phone_number", "title"]
    assert asked_facts("Could you give me your user ID and the title?", keys) == [
        "user_id",
        "title",
    ]
    assert asked_facts("What is your postal code and e-mail?", keys) == ["zip", "email"]
    assert asked_facts("What's your mobile number?", keys) == ["phone_number"]
    assert asked_facts("How are you today?", keys) == []


def test_transfer_refusal_and_done__are_recognised():
    assert announces_transfer("YOU ARE BEING TRANSFERRED TO A HUMAN AGENT. PLEASE HOLD ON.")
    assert announces_transfer("I'm transferring you to a human agent now.")
    assert not announces_transfer("I can transfer the data to your new plan.")
    assert refuses("Sorry, I can't delete tasks.")
    assert refuses("I’m unable to do that.")
    assert not refuses("Done, your task is created.")
    assert claims_done("Everything you asked for is done.")
    assert claims_done("Your task has been updated successfully.")
    assert not claims_done("Please do this, then tell me when it is done.")
    assert not claims_done("I will mark it completed.")
    assert not claims_done("Should I mark it completed?")
    assert claims_done("User user_7 does not exist.", ["does not exist"])


def test_offers__accept_what_the_script_accepts_and_decline_the_rest():
    assert offer_decision("Would you like me to refuel 2 GB of data?", ["refuel"]) is True
    assert offer_decision("Would you like to change your plan?", ["refuel", "confirm"]) is False
    assert offer_decision("Shall I proceed with the cancellation?", ["confirm"]) is True
    assert offer_decision("Please confirm the new address.", ["confirm"]) is True
    assert offer_decision("Shall I proceed?", []) is False
    assert offer_decision("The agent confirmed the update.", ["confirm"]) is None
    assert offer_decision("Your task is created.", ["confirm"]) is None


def test_requested_calls__string_parameters_written_as_objects_stay_json_text():
    tools = [
        {
            "type": "function",
            "function": {
                "name": "call_discoverable_user_tool",
                "parameters": {
                    "properties": {
                        "discoverable_tool_name": {"type": "string"},
                        "arguments": {"type": "string"},
                    },
                    "required": ["discoverable_tool_name"],
                },
            },
        }
    ]
    text = 'Please run call_discoverable_user_tool(discoverable_tool_name=t, arguments={"a": 1})'
    (call,) = requested_calls(text, tools)
    assert call.arguments == {"discoverable_tool_name": "t", "arguments": '{"a": 1}'}


def test_facts__are_read_by_the_shared_details_words():
    keys = ["name", "first_name", "last_name", "reservation_id", "user_id", "new_address"]
    assert asked_facts("Can you give me your booking reference?", keys) == ["reservation_id"]
    assert asked_facts("Who am I speaking with today?", keys) == ["name"]
    assert asked_facts("What username is the booking under?", keys) == ["user_id"]
    assert asked_facts("What is your first and last name?", keys) == ["name"]
    assert asked_facts("Could you tell me your first name, last name?", keys) == [
        "first_name",
        "last_name",
    ]
    # The user's own key may say more than the detail's words ("new_address").
    assert asked_facts("What is the new address?", keys) == ["new_address"]


def test_facts__are_not_asked_by_remarks_restatements_or_the_domains_things():
    keys = ["name", "email"]
    assert asked_facts("Your email has been updated.", keys) == []
    assert asked_facts("Just to confirm, you'd like to update your email on file?", keys) == []
    from tau_env.domains.telecom.user_script import REQUESTS

    text = "Tell me what your Access Point Names show."
    assert asked_facts(text, keys) == ["name"]  # read by the generic words...
    assert asked_facts(text, keys, REQUESTS) == []  # ...but telecom knows the APN menu


def test_facts__an_offer_to_act_on_a_thing_does_not_ask_for_its_id():
    """Official retail 79: read as asking for the order number, the offer went undeclined."""
    keys = ["order_id"]
    assert asked_facts("Would you like me to cancel the order as well?", keys) == []
    assert asked_facts("Do you want me to check the order?", keys) == []
    assert asked_facts("Which order would you like to cancel?", keys) == ["order_id"]
    text = "Would you like me to look into your order? What is the order number?"
    assert asked_facts(text, keys) == ["order_id"]


def test_confirmations__asking_leave_question_tags_and_conditional_requests():
    assert offer_decision("Should I submit this now?", ["confirm"]) is True
    assert offer_decision("You want to cancel reservation ABC123, correct?", ["confirm"]) is True
    assert offer_decision("Do you want me to make this change?", ["confirm"]) is True
    text = "Please let me know if you'd like me to proceed."
    assert offer_decision(text, ["confirm"]) is True
    assert offer_decision("Let me know if you have any questions.", ["confirm"]) is None
    assert offer_decision("Can I help you with anything else?", ["confirm"]) is False
    assert offer_decision("Should I change your plan?", ["confirm"], ["plan"]) is False


def test_read_requests__reports_requests_it_does_not_understand():
    from tau_env.domains.telecom.user_script import REQUESTS
    from tau_env.wrappers.users.matcher import read_requests

    found = read_requests("Please turn on Bluetooth.", PHONE, {}, REQUESTS)
    assert found.calls == () and found.unclear == ("",)
    found = read_requests("Could you flip the flight mode switch?", PHONE, {}, REQUESTS)
    assert [c.name for c in found.calls] == ["toggle_airplane_mode"] and not found.unclear


def test_requests__a_repeated_sentence_is_read_in_its_own_context():
    # Readers remember sentences that read the same anywhere; "Please turn it off." does
    # not: "it" is what the sentence before named, so the same words ask for other tools.
    assert names("Airplane mode blocks every radio. Please turn it off.") == [
        "toggle_airplane_mode"
    ]
    assert names("Mobile data is what apps use. Please turn it off.") == ["toggle_data"]
    assert names("Roaming is on. Please turn it off.") == ["toggle_roaming"]
    assert names("Please turn it off.") == []
    assert names("Please turn it off. Airplane mode blocks every radio.") == []
    for _ in range(2):  # once read, then remembered: the same requests
        assert names("Check the status bar. Roaming is on. Please turn it off.") == [
            "check_status_bar",
            "toggle_roaming",
        ]
