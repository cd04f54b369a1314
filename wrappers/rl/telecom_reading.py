"""Reading what a customer says about their phone: meaning, not exact strings.

Customers quote their phone (``Airplane Mode: ON``), retell it (``airplane mode is switched
on``), shout or whisper it (``AIRPLANE MODE IS ON``, ``airplane mode is on``), leave parts out,
and describe icons in words (``three bars``, ``a crossed-out data icon``). `read_report`
recognises *what* a sentence is about (a concept: airplane mode, mobile data, the SIM...) and
*which state* it states (on/off words, levels, values), in any casing, and returns the facts
in the order the text states them, so the newest wins.

A sentence that names a concept without a state ("I flipped the airplane mode switch") states
nothing. A status-bar report lists icons; what it does not list is off (no airplane icon:
airplane mode off), as on the phone itself. Its VPN icon says a VPN is connected, not how
fast (``("vpn", "present")``: a known performance is kept).

Returned readings are ``(name, value)`` pairs: device facts of `DEVICE_FACTS`, and the events
``unresolved`` (a goal check still fails), ``not_followed`` (the customer did not do what was
asked), ``paid`` (a payment went through), ``phone_number``, ``full_name``, ``birth_date``,
``abroad`` (``"yes"``/``"no"``).
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["DEVICE_FACTS", "Reading", "intent_of", "read_report"]

DEVICE_FACTS: dict[str, tuple[str, ...]] = {
    "airplane_mode": ("on", "off"),
    "sim": ("active", "missing", "locked"),
    "signal": ("none", "some"),
    "network_type": ("none", "2G", "3G", "4G", "5G"),
    "mobile_data": ("on", "off"),
    "data_roaming": ("on", "off"),
    "data_saver": ("on", "off"),
    "network_mode": ("4g_5g_preferred", "4g_only", "3g_only", "2g_only"),
    "apn_name": ("ok", "broken"),
    "mmsc_url": ("set", "missing"),
    "apn_reset": ("pending",),
    "vpn": ("off", "connected", "poor"),
    "wifi_calling": ("on", "off"),
    "sms_permission": ("granted", "missing"),
    "storage_permission": ("granted", "missing"),
    "speed": ("failed", "very_poor", "poor", "fair", "good", "excellent"),
    "mms": ("can_send", "cannot_send"),
}
"""Device fact -> the values it can take (what the customer's phone can report)."""

Reading = tuple[str, str | None]
"""(fact or event, value); a value of None forgets the fact."""

_OFF = re.compile(
    r"\b(off|disabled|deactivated|turned off|switched off|not on|no|not enabled|disconnected|"
    r"not connected|crossed[- ]out)\b"
)
_ON = re.compile(
    r"\b(on|enabled|activated|turned on|switched on|yes|active|connected|icon|arrow|lock)\b"
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_CLAUSE = re.compile(r",\s*|;\s*|\s+\|\s+|\s+and\s+")
_LEVEL_WORDS = {
    "no": "none",
    "zero": "none",
    "one": "some",
    "1": "some",
    "two": "some",
    "2": "some",
    "three": "some",
    "3": "some",
    "four": "some",
    "4": "some",
    "full": "some",
}
_STATUS_BAR = re.compile(r"🔋|\bbattery\b")
"""A status-bar report: every status bar ends with the battery level."""
_NETWORK_TYPE = re.compile(r"\b([2345])g\b")
_MODE = re.compile(r"4g[/_ ]5g[ _]preferred|([234])g[ _]only")
_SPEED = re.compile(r"\b(very poor|poor|fair|good|excellent)\b")
_SPEED_FAILED = re.compile(r"speed test (?:failed|didn't work)|no connection")
_MMS_NO = re.compile(r"\b(cannot|can't|can not|unable to|not able to) send\b")
_MMS_YES = re.compile(r"\bcan send (?:mms|picture)|(?:mms|picture) messages can be sent")
_UNRESOLVED = re.compile(
    r"still not (?:resolved|working|fixed)|didn't fix|did not fix|no luck|not resolved"
)
_NOT_FOLLOWED = re.compile(
    r"say (?:that|it) again|repeat (?:that|it|what)|didn't (?:quite )?(?:follow|catch|understand)|"
    r"\binstead\b|wasn't sure how|not sure how"
)
_PAID = re.compile(r"\bpaid\b|payment of [\d.]+ usd[^.]*?(?:has been made|went through)")
_PERMISSIONS = re.compile(
    r"(?:messaging app|app 'messaging') (?:has )?(?:permissions?(?: for)?:?) ([^.]*)"
)
_NO_PERMISSIONS = re.compile(r"messaging'? ?(?:app )?(?:currently )?has no permissions")
_GRANTED = re.compile(
    r"(sms|storage) permission granted|permission '(sms|storage)' granted|"
    r"now has the (sms|storage) permission"
)
_APN_NAME = re.compile(r"apn name(?: is|:| says)? ([\w\-]+)")
_MMSC = re.compile(
    r"mmsc url(?: \(for picture messages\))?(?: is|:)? (\S+)|mms cent(?:re|er) address is (\S+)"
)
_APN_PENDING = re.compile(r"reset (?:when i restart|at reboot)|apn reset pending")
_APN_APPLIED = re.compile(r"resetting (?:the )?apn settings")
_PHONE = re.compile(r"phone(?:'s)? number is ([\d()+\- ]*\d)", re.IGNORECASE)
_NAME = re.compile(r"\bname is ([A-Z][\w'-]+(?: [A-Z][\w'-]+)+)")
_BORN = re.compile(r"(?:date of birth|born)\D{0,12}(\d{4}-\d{2}-\d{2})", re.IGNORECASE)
_LOCATION = re.compile(r"location is ([^.]+)", re.IGNORECASE)
_INTENTS = (
    (re.compile(r"picture message|\bmms\b"), "mms"),
    (re.compile(r"mobile data|\binternet\b|\bdata\b|speed"), "mobile_data"),
    (re.compile(r"no service|signal|can't call|cannot call|calls?\b"), "service"),
)


def intent_of(opening: str) -> str | None:
    """Why the customer calls, from their first words: ``service``, ``mobile_data``, ``mms``."""
    lowered = opening.lower()
    return next((intent for pattern, intent in _INTENTS if pattern.search(lowered)), None)


@lru_cache(maxsize=16384)
def read_report(text: str) -> tuple[Reading, ...]:
    """Everything `text` states about the phone and the customer, in order (cached per text)."""
    readings: list[Reading] = []
    for fact in (_PHONE, _NAME, _BORN):
        if found := fact.search(text):
            key = {_PHONE: "phone_number", _NAME: "full_name", _BORN: "birth_date"}[fact]
            readings.append((key, found.group(1).strip()))
    if found := _LOCATION.search(text):
        readings.append(("abroad", "yes" if "abroad" in found.group(1).lower() else "no"))
    for sentence in _SENTENCE.split(text.lower()):
        if sentence.strip():
            readings += _sentence(sentence.strip())
    return tuple(readings)


def _sentence(sentence: str) -> list[Reading]:
    readings: list[Reading] = []
    if _NOT_FOLLOWED.search(sentence):
        readings.append(("not_followed", "yes"))
    if _UNRESOLVED.search(sentence):
        readings.append(("unresolved", "yes"))
    if _PAID.search(sentence):
        readings.append(("paid", "yes"))
    readings += _whole_sentence(sentence)
    if _STATUS_BAR.search(sentence):
        return readings + _status_bar(sentence)
    for clause in _CLAUSE.split(sentence):
        readings += _clause(clause)
    return readings


def _whole_sentence(sentence: str) -> list[Reading]:
    """Facts whose statement spans commas: permissions, MMS, speed, APN."""
    readings: list[Reading] = []
    if _NO_PERMISSIONS.search(sentence):
        readings += [("sms_permission", "missing"), ("storage_permission", "missing")]
    elif found := _PERMISSIONS.search(sentence):
        granted = found.group(1)
        for name in ("sms", "storage"):
            readings.append((f"{name}_permission", "granted" if name in granted else "missing"))
    for found in _GRANTED.finditer(sentence):
        name = next(group for group in found.groups() if group)
        readings.append((f"{name}_permission", "granted"))
    if _MMS_NO.search(sentence) and ("mms" in sentence or "picture" in sentence):
        readings.append(("mms", "cannot_send"))
    elif _MMS_YES.search(sentence):
        readings.append(("mms", "can_send"))
    if "speed" in sentence or "mbps" in sentence:
        if _SPEED_FAILED.search(sentence):
            readings.append(("speed", "failed"))
        elif found := _SPEED.search(sentence.split("speed", 1)[-1]):
            readings.append(("speed", found.group(1).replace(" ", "_")))
    if found := _APN_NAME.search(sentence):
        readings.append(("apn_name", "broken" if found.group(1) == "broken" else "ok"))
    if found := _MMSC.search(sentence):
        value = found.group(1) or found.group(2)
        missing = value.rstrip(".,") in ("not", "empty", "blank", "missing", "none")
        readings.append(("mmsc_url", "missing" if missing else "set"))
    if _APN_APPLIED.search(sentence):
        readings += [("apn_reset", None), ("apn_name", "ok"), ("mmsc_url", "set")]
    elif _APN_PENDING.search(sentence):
        readings.append(("apn_reset", "pending"))
    return readings


def _switch(clause: str) -> str | None:
    """``on``/``off`` as a clause states it (off words win: "not on" is off)."""
    if _OFF.search(clause):
        return "off"
    if _ON.search(clause):
        return "on"
    return None


def _clause(clause: str) -> list[Reading]:
    """A switch, mode or signal stated in one clause; nothing when no state is stated."""
    if clause.startswith("i ") and not re.search(r"\b(is|are|now|says|shows)\b", clause):
        return []  # "i toggled airplane mode": an action, not a state
    if "data saver" in clause or "saver" in clause or "🔽" in clause:
        return _on_off("data_saver", clause)
    if "roaming" in clause:
        return _on_off("data_roaming", clause)
    if "calling" in clause:
        return _on_off("wifi_calling", clause)
    if "airplane" in clause or "flight mode" in clause or "✈" in clause:
        return _on_off("airplane_mode", clause)
    if "vpn" in clause or "performance" in clause:
        return _vpn(clause)
    if re.search(r"\bsim\b", clause):
        return _sim(clause)
    mode = _MODE.search(clause)
    if mode and re.search(r"mode|network|prefer", clause):
        return [("network_mode", _mode_value(mode))]
    if "data" in clause and not re.search(r"usage|plan|allowance|\bgb\b", clause):
        return _on_off("mobile_data", clause)
    return _signal(clause)


def _on_off(fact: str, clause: str) -> list[Reading]:
    value = _switch(clause)
    return [(fact, value)] if value else []


def _vpn(clause: str) -> list[Reading]:
    if "poor" in clause and "performance" in clause:
        return [("vpn", "poor")]
    if "performance" in clause:
        return [("vpn", "connected")]
    if "settings" in clause:
        return []  # "on in settings, but not connected": the setting, not the connection
    if re.search(r"\b(off|disconnected|not connected|no vpn|no active vpn)\b", clause):
        return [("vpn", "off")]
    if re.search(r"\b(connected|on|lock)\b", clause):
        return [("vpn", "connected")]
    return []


def _sim(clause: str) -> list[Reading]:
    if "locked" in clause or re.search(r"\b(pin|puk)\b", clause):
        return [("sim", "locked")]
    if re.search(r"no sim|not detected|missing|\bno\b", clause):
        return [("sim", "missing")]
    if re.search(r"back in|re-?seated|put it back", clause):
        return [("sim", None)]
    if "active" in clause or "working" in clause:
        return [("sim", "active")]
    return []


def _mode_value(found: re.Match[str]) -> str:
    return f"{found.group(1)}g_only" if found.group(1) else "4g_5g_preferred"


def _signal(clause: str) -> list[Reading]:
    readings: list[Reading] = []
    if re.search(r"no signal|no bars|no service|signal(?: is| strength)?:? none", clause):
        readings.append(("signal", "none"))
    elif re.search(r"\bbars?\b|signal|📶", clause):
        words = re.findall(r"\b(no|zero|one|two|three|four|full|[1-4])\b(?= bars?)", clause)
        readings.append(("signal", _LEVEL_WORDS.get(words[0], "some") if words else "some"))
    if (found := _NETWORK_TYPE.search(clause)) and "only" not in clause:
        readings.append(("network_type", f"{found.group(1)}G"))
    elif re.search(r"network(?: type)?(?: is|:) none", clause):
        readings.append(("network_type", "none"))
    return readings


def _status_bar(sentence: str) -> list[Reading]:
    """A status-bar report: the icons it lists, and what their absence means."""
    items = [item for item in _CLAUSE.split(sentence) if item.strip()]
    airplane = any("airplane" in item or "✈" in item for item in items)
    readings: list[Reading] = [("airplane_mode", "on" if airplane else "off")]
    vpn = any("vpn" in item for item in items)
    readings.append(("vpn", "present" if vpn else "off"))
    if airplane:
        return [*readings, ("signal", "none")]
    technology = "none"
    for item in items:
        readings += [r for r in _signal(item) if r[0] == "signal"]
        if (found := _NETWORK_TYPE.search(item)) and "only" not in item:
            technology = f"{found.group(1)}G"
    readings.append(("network_type", technology))
    if technology == "none":
        return readings  # no network: the data icon says nothing about the data switch
    data = [item for item in items if "data" in item and "saver" not in item]
    state = (_switch(data[0]) or "on") if data else "off"
    readings.append(("mobile_data", state))
    if state == "on":  # data saver shows only while data is on
        saver = any("saver" in item or "🔽" in item for item in items)
        readings.append(("data_saver", "on" if saver else "off"))
    return readings
