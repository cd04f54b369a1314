import random

from tau_env.domains.telecom.user_script import USER_VOCABULARY
from tau_env.messages import ToolMessage
from tau_env.tasks.user_vocabulary import ReportLexicon
from tau_env.wrappers.users.report import Reporter
from tau_env.wrappers.users.style import STYLES, UserStyle

BAR = "Status Bar: 📶³ Good | 5G | 📱 Data Enabled | 🔽 Data Saver | 🔋 80%"
SWITCH = "Airplane Mode is now OFF.\n" + BAR


def result(name, content, error=False):
    return ToolMessage(id="1", name=name, content=content, error=error, requestor="user")


def test_plain_style__says_what_the_screen_shows_in_its_first_wording_for_any_seed():
    said = {
        Reporter(STYLES["plain"], USER_VOCABULARY.reports, random.Random(seed)).performed(
            [result("toggle_airplane_mode", SWITCH)]
        )
        for seed in range(5)
    }
    assert said == {
        "I did that. I flipped the airplane mode switch. Airplane mode is off. The status bar "
        "shows three bars of signal, 5G, the mobile data icon, the data saver arrow, battery 80%."
    }


def test_generic_reports__retell_key_values_constants_and_prose_without_the_tool_echo():
    output = (
        "Referral request submitted successfully!\n  - Referral ID: 16b43fdcc3327760\n"
        "  - Status: NO_PROGRESS\n\nExecuted: get_referral_link\nArguments: {\n"
        '  "user_id": "890389b165"\n}\nShare your referral ID with the person you refer.'
    )
    reporter = Reporter(STYLES["plain"], ReportLexicon(), random.Random(0))
    text = reporter.performed([result("call_discoverable_user_tool", output)])
    assert text == (
        "I did that. My screen says: Referral request submitted successfully! The referral id is "
        "16b43fdcc3327760. The status is no progress. Share my referral ID with the person I "
        "refer."
    )
    listed = reporter.performed([result("check_notifications", '[{"id": "n_1", "read": false}]')])
    assert listed == "I did that. My screen says: The id is n_1. The read is off."


def test_paraphrase__says_icons_and_switches_in_words_without_the_tool_name():
    reporter = Reporter(STYLES["paraphrase"], USER_VOCABULARY.reports, random.Random(3))
    texts = [reporter.performed([result("toggle_airplane_mode", SWITCH)]) for _ in range(20)]
    for text in texts:
        assert "toggle_airplane_mode" not in text and "📶" not in text and "|" not in text
        assert "airplane" in text.lower() and "data saver" in text.lower()
    assert len(set(texts)) > 3  # several wordings and casings
    assert any(text == text.lower() for text in texts)


def test_paraphrase__falls_back_to_key_value_lines_for_unknown_outputs():
    reporter = Reporter(STYLES["paraphrase"], ReportLexicon(), random.Random(0))
    text = reporter.performed([result("check_lamp", "Lamp Enabled: Yes\nColour: red")]).lower()
    assert "lamp is" in text or "lamp:" in text
    assert "colour" in text and "red" in text and "check_lamp" not in text


def test_novice__may_leave_details_out_and_misread_icons():
    novice = UserStyle(name="n", paraphrase=True, omission=1.0, misread=1.0)
    reporter = Reporter(novice, USER_VOCABULARY.reports, random.Random(0))
    texts = [reporter.performed([result("check_status_bar", SWITCH)]) for _ in range(20)]
    assert all("three bars" not in t and "3 bars" not in t for t in texts)  # read one level off
    assert any("battery" not in t for t in texts)  # details left out


def test_mistakes__are_reported_as_such():
    reporter = Reporter(STYLES["plain"], USER_VOCABULARY.reports, random.Random(0))
    text = reporter.performed(
        [result("check_network_status", "Airplane Mode: ON")], instead={"check_network_status"}
    )
    assert "instead" in text
