"""The plain reading: 12-word runs with only ids, amounts and names left out; program speech."""

from tau_env.wrappers.users.plain_reading import (
    PLAIN_RUN,
    PlainScenario,
    plain_words,
    program_speech,
    scenario_names,
)

SCENARIO = (
    "Instructions:\n\tDomain: retail\n\tReason for call:\n\t\tYou want to exchange the water "
    "bottle and the Desk Lamp (prefer battery > USB > AC). If the agent asks for confirmation, "
    "only exchange the desk lamp. You do NOT want a refund to your card ending in 1234.\n"
    "\tKnown info:\n\t\tYou are Mei Kovacs in zipcode 28236; your email is mei.kovacs@x.com.\n"
)


def test_names__capitalised_inside_a_sentence_and_never_lower_case():
    names = scenario_names(SCENARIO)
    assert {"mei", "kovacs", "usb", "ac"} <= names
    # "Desk Lamp" is also written "desk lamp"; "NOT" is emphasis; sentence starts tell nothing.
    assert not names & {"desk", "lamp", "not", "you", "if", "instructions", "domain", "i"}


def test_words__nothing_masked_but_ids_amounts_and_names():
    assert plain_words("Swap {'color': 'blue', 'size': 'S'} (for $12.50 on #W1).") == (
        "swap",
        "color",
        "blue",
        "size",
        "is",  # 's' reads as a contraction in both texts alike
        "for",
        "on",
    )
    assert plain_words("I'd say T-Shirt to Mei", frozenset({"mei"})) == (
        "<person>",
        "would",
        "say",
        "t",
        "shirt",
        "to",
    )


def test_copied__twelve_words_count_eleven_do_not_and_names_do_not_break_a_run():
    assert PLAIN_RUN == 12
    words = PlainScenario.of(SCENARIO)
    # "If the agent asks for confirmation only exchange the desk lamp" is 11 words.
    assert words.copied("if the agent asks for confirmation, only exchange the desk lamp") == []
    twelve = "Mei: if the agent asks for confirmation, only exchange the desk lamp. You do"
    assert words.copied(twelve) == [
        "if the agent asks for confirmation only exchange the desk lamp <person> do"
    ]
    # USB and AC are names: left out of both texts, the run goes on across them.
    aloud = "exchange the water bottle and the Desk Lamp (prefer battery, USB, AC). If the agent"
    assert words.copied(aloud)


def test_program_speech__each_kind_of_finding():
    assert program_speech("I ran check_status_bar.", {"check_status_bar", "think"}) == [
        "tool name: check_status_bar"
    ]
    assert program_speech("Let me think.", {"think"}) == []  # a one-word tool is a word
    assert program_speech("reboot_device()")[:1] == ["call: reboot_device()"]
    assert program_speech("It says {'a': 'b'}")[0].startswith("literal:")
    assert program_speech("my full_name is Mei") == ["identifier: full_name"]
    status = "Status Bar: 📵 No Signal | 🔋 72%"
    assert program_speech(f"Look: {status}", tool_outputs=[status]) == [f"raw output: {status}"]
    # A prose line of the screen read out is a customer's reading, not raw output.
    assert (
        program_speech("It says your payment went through.", (), ["Your payment went through."])
        == []
    )
