"""What the scripted user needs to know about telecom: scenario phrases and phone words.

Scenario phrases (`ScenarioVocabulary`): how a scenario says when the problem counts as solved
(a goal check on the phone: signal in the status bar, an excellent speed test, MMS sent), what
the user accepts (buying up to 2 GB of data, paying a bill) and refuses (a plan change). Both
the reference's scenarios and ours say these things in a few regular ways.

Requests (`RequestLexicon`, ``request_words.toml``): the phone's objects (airplane mode,
mobile data, the SIM card, the APN settings...) in the words agents use for them, and which
tool does what to which, so that "Could you tap the flight mode toggle?" is read as
``toggle_airplane_mode``.

Phone words (`ReportLexicon`): how a user retells what their phone showed in their own words
(status icons, switch states, speed-test results), which check a novice runs instead of the
change asked for, and which status icons a novice may misread.
"""

from __future__ import annotations

from tau_env.data_files import builtin_toml
from tau_env.tasks.model import GoalCheck
from tau_env.tasks.scenario_reading import ScenarioVocabulary
from tau_env.tasks.user_vocabulary import ReportLexicon, RequestLexicon, UserVocabulary

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


def _lexicon(lines: tuple[tuple[str, tuple[str, ...]], ...]) -> ReportLexicon:
    """The phone words: ``lines`` as given, the rest read from ``user_words.toml``.

    The file holds the plain word lists (status icons said in words, what the user says they
    did, the check a novice runs instead, the icons a novice misreads); the line patterns stay
    here, next to the regexes they are.
    """
    words = builtin_toml(__package__, "user_words.toml")
    return ReportLexicon(
        lines=lines,
        tokens=tuple((text, tuple(said)) for text, said in words["tokens"].items()),
        tool_phrases=tuple((tool, tuple(said)) for tool, said in words["tool_phrases"].items()),
        neighbours=tuple((tool, other) for tool, other in words["neighbours"]),
        misreads=tuple((text, instead) for text, instead in words["misreads"]),
    )


_SWITCHES = (
    *(
        (pattern, (f"{name} is {{on:1}}", f"{short}: {{on:1}}"))
        for pattern, name, short in (
            (r"Airplane Mode(?: is now|:) (ON|OFF)\.?", "airplane mode", "airplane mode"),
            (r"Mobile Data (?:Enabled:|is now) (Yes|No|ON|OFF)\.?", "mobile data", "mobile data"),
            (r"Data Roaming (?:Enabled:|is now) (Yes|No|ON|OFF)\.?", "data roaming", "roaming"),
            (
                r"Data Saver [Mm]ode is (?:now )?(ON|OFF)(?: \(limits data usage\))?\.",
                "data saver",
                "data saver mode",
            ),
            (
                r"Wi-Fi Calling is (?:currently turned|now) (ON|OFF)\.",
                "wi-fi calling",
                "wifi calling",
            ),
        )
    ),
    (r"Wi-Fi Radio: (ON|OFF)", ("wi-fi is {on:1}",)),
    (r"Wi-Fi is now (ON|OFF)\.", ("wi-fi is now {on:1}",)),
)
"""On/off lines: each is said as "<name> is on" or "<short>: on" (switch words for ``{on:1}``)."""

LEXICON = _lexicon(
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
)

REQUESTS = RequestLexicon.from_toml(builtin_toml(__package__, "request_words.toml"))
"""How the customer reads requests about its phone (``request_words.toml``)."""

USER_VOCABULARY = UserVocabulary(scenario=SCENARIO, reports=LEXICON, requests=REQUESTS)
"""The telecom domain's `UserVocabulary`."""
