"""What a telecom agent knows so far, read from the messages it really receives.

`TelecomBelief` is the agent's notebook for one episode: the facts the customer told it (phone
number, location), what its own tools returned (customer, line, bills, data usage) and what the
customer reported from the phone (status bar, SIM, APN, VPN, permissions, speed test...). It is
filled only from the agent's observation: the customer's opening line, the customer's replies
(the scripted user reports each tool it ran as ``<tool> shows: <result>``, and its goal check
after ``It is still not resolved:``), the agent's tool results and the policy text (today's
date). Nothing is read from the task, the databases or the gold plan.

Device facts are small vocabularies (`DEVICE_FACTS`); an unknown fact is absent. Every reading
overwrites the older one, in the order the text states them, so the newest report wins.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["DEVICE_FACTS", "INTENTS", "TelecomBelief"]

INTENTS: tuple[str, ...] = ("service", "mobile_data", "mms")
"""Why the customer calls: no service, slow or missing mobile data, MMS that do not send."""

DEVICE_FACTS: dict[str, tuple[str, ...]] = {
    "airplane_mode": ("on", "off"),
    "sim": ("active", "missing", "locked"),
    "signal": ("none", "some"),
    "network_type": ("none", "2G", "3G", "4G", "5G"),
    "mobile_data": ("on", "off"),
    "data_roaming": ("on", "off"),
    "data_saver": ("on", "off"),
    "network_mode": ("4g_5g_preferred", "other"),
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

_GOAL_CHECK_INTENT = {
    "check_status_bar": "service",
    "run_speed_test": "mobile_data",
    "can_send_mms": "mms",
}
_OPENING_INTENT = (
    (re.compile(r"picture message|\bMMS\b", re.IGNORECASE), "mms"),
    (re.compile(r"mobile data|\bdata\b", re.IGNORECASE), "mobile_data"),
    (re.compile(r"no service|signal|can't call", re.IGNORECASE), "service"),
)
_DATE = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")
_TECHNOLOGIES = ("2G", "3G", "4G", "5G")


def _on(value: str) -> str:
    return "on" if value.upper() in ("ON", "YES") else "off"


@dataclass
class TelecomBelief:
    """The agent's knowledge in one telecom episode (see the module docstring).

    Attributes:
        today: Today's date (ISO text) as the policy states it, to judge contract end dates.
        opened: Whether the customer's opening line was read (it names the intent).
        intent: Why the customer calls, once the opening or a goal check shows it.
        phone_number: The number the customer gave.
        full_name, birth_date: The name and date of birth the customer gave.
        abroad: Whether the customer said they are abroad (None: not asked yet).
        customer_id: The customer found by a lookup.
        line_ids: That customer's lines; ``looked_up`` those already inspected.
        line_id: The customer's own line (the one with their phone number).
        line_suspended, line_roaming, contract_ended: That line's state (None: unknown).
        overdue_bill_id: An overdue bill seen in the bills (None when none or not looked up).
        bills_seen: Whether the bills were listed since the last payment.
        payment_requested, payment_made: Progress of collecting the overdue bill.
        data_used, data_limit, data_refueled: The line's data usage, in GB, once looked up.
        device: Device fact -> its latest reported value (keys of `DEVICE_FACTS`).
        tool_errors: Tool calls of the agent that failed.
    """

    today: str | None = None
    opened: bool = False
    intent: str | None = None
    phone_number: str | None = None
    full_name: str | None = None
    birth_date: str | None = None
    abroad: bool | None = None
    customer_id: str | None = None
    line_ids: list[str] = field(default_factory=list)
    looked_up: set[str] = field(default_factory=set)
    line_id: str | None = None
    line_suspended: bool | None = None
    line_roaming: bool | None = None
    contract_ended: bool | None = None
    overdue_bill_id: str | None = None
    bills_seen: bool = False
    payment_requested: bool = False
    payment_made: bool = False
    data_used: float | None = None
    data_limit: float | None = None
    data_refueled: float | None = None
    device: dict[str, str] = field(default_factory=dict)
    tool_errors: int = 0

    # -- derived facts -------------------------------------------------------------------------
    @property
    def out_of_data(self) -> bool | None:
        """True when the data used reaches the limit plus the data bought (None: unknown)."""
        if self.data_used is None or self.data_limit is None or self.data_refueled is None:
            return None
        return self.data_used >= self.data_limit + self.data_refueled

    @property
    def candidate_lines(self) -> list[str]:
        """The customer's lines not inspected yet, while their own line is unknown."""
        if self.line_id is not None:
            return []
        return [line for line in self.line_ids if line not in self.looked_up]

    # -- reading the observation ---------------------------------------------------------------
    def read_instructions(self, instructions: str) -> None:
        """Take today's date from the policy (its first ISO date)."""
        match = _DATE.search(instructions)
        self.today = match.group(1) if match else None

    def read_user_text(self, text: str) -> None:
        """Update from a customer message: opening, facts, and reported tool results."""
        if not self.opened:
            self.opened = True
            for pattern, intent in _OPENING_INTENT:
                if pattern.search(text):
                    self.intent = intent
                    break
        events: list[tuple[int, Callable[[], None]]] = []
        for pattern, handler in _USER_PATTERNS:
            for match in pattern.finditer(text):
                events.append((match.start(), _bind(handler, self, match)))
        for _, apply in sorted(events, key=lambda event: event[0]):
            apply()

    def read_tool_result(self, tool: str, content: str, error: bool) -> None:
        """Update from the result of one of the agent's own tool calls."""
        if error:
            self.tool_errors += 1
            return
        if tool == "send_payment_request":
            self.payment_requested = True
            return
        if tool in ("enable_roaming", "disable_roaming"):
            self.line_roaming = tool == "enable_roaming"
            return
        try:
            data: Any = json.loads(content)
        except ValueError:
            return
        if tool.startswith("get_customer_by_"):
            record = data[0] if isinstance(data, list) and data else data
            if isinstance(record, dict) and "customer_id" in record:
                self.customer_id = str(record["customer_id"])
                self.line_ids = [str(line) for line in record.get("line_ids", [])]
        elif tool in ("get_details_by_id", "resume_line", "suspend_line") and isinstance(
            data, dict
        ):
            self._read_line(data.get("line", data))
        elif tool == "get_bills_for_customer" and isinstance(data, list):
            self.bills_seen = True
            overdue = [bill for bill in data if bill.get("status") == "Overdue"]
            self.overdue_bill_id = str(overdue[0]["bill_id"]) if overdue else None
        elif tool == "get_data_usage" and isinstance(data, dict):
            self.data_used = float(data["data_used_gb"])
            self.data_limit = float(data["data_limit_gb"])
            self.data_refueled = float(data["data_refueling_gb"])
        elif tool == "refuel_data" and isinstance(data, dict):
            self.data_refueled = float(data["new_data_refueling_gb"])

    def _read_line(self, record: Any) -> None:
        if not isinstance(record, dict) or "line_id" not in record:
            return
        line_id = str(record["line_id"])
        self.looked_up.add(line_id)
        if self.phone_number is None or _digits(record.get("phone_number")) != _digits(
            self.phone_number
        ):
            return
        self.line_id = line_id
        self.line_suspended = record.get("status") != "Active"
        self.line_roaming = bool(record.get("roaming_enabled"))
        end = record.get("contract_end_date")
        if self.today is not None and isinstance(end, str):
            self.contract_ended = end < self.today

    # -- device facts --------------------------------------------------------------------------
    def set_fact(self, name: str, value: str | None) -> None:
        """Record a device fact (None forgets it)."""
        if value is None:
            self.device.pop(name, None)
            return
        if value not in DEVICE_FACTS[name]:
            raise ValueError(f"{name} cannot be {value!r}; expected one of {DEVICE_FACTS[name]}")
        self.device[name] = value

    def _status_bar(self, tokens: list[str]) -> None:
        airplane = any("Airplane Mode" in token for token in tokens)
        self.set_fact("airplane_mode", "on" if airplane else "off")
        self.set_fact("vpn", self._vpn_if("🔒 VPN Connected" in tokens))
        if airplane:
            self.set_fact("signal", "none")
            return
        technology = next((token for token in tokens if token in _TECHNOLOGIES), "none")
        self.set_fact("network_type", technology)
        self.set_fact("signal", "none" if "📵 No Signal" in tokens else "some")
        if "📱 Data Enabled" in tokens:
            self.set_fact("mobile_data", "on")
            self.set_fact("data_saver", "on" if "🔽 Data Saver" in tokens else "off")
        elif technology != "none":
            self.set_fact("mobile_data", "off")

    def _vpn_if(self, connected: bool) -> str:
        if not connected:
            return "off"
        return "poor" if self.device.get("vpn") == "poor" else "connected"

    def _location(self, place: str) -> None:
        self.abroad = "abroad" in place.lower()

    def _permissions(self, granted: str) -> None:
        names = {name.strip() for name in granted.split(",")}
        for permission in ("sms", "storage"):
            self.set_fact(
                f"{permission}_permission", "granted" if permission in names else "missing"
            )

    def _speed(self, description: str | None) -> None:
        self.set_fact("speed", "failed" if description is None else _speed_value(description))


def _digits(value: object) -> str:
    return re.sub(r"\D", "", str(value or ""))


def _value(match: re.Match[str]) -> str:
    """A value at the end of a line, without the full stop a report may add after it."""
    return match.group(1).strip().rstrip(".").strip()


def _speed_value(description: str) -> str:
    return description.strip().lower().replace(" ", "_")


def _bind(
    handler: Callable[[TelecomBelief, re.Match[str]], None],
    belief: TelecomBelief,
    match: re.Match[str],
) -> Callable[[], None]:
    return lambda: handler(belief, match)


def _fact(name: str, value: str) -> Callable[[TelecomBelief, re.Match[str]], None]:
    return lambda belief, match: belief.set_fact(name, value)


def _switch(name: str) -> Callable[[TelecomBelief, re.Match[str]], None]:
    return lambda belief, match: belief.set_fact(name, _on(match.group(1)))


def _sim(belief: TelecomBelief, match: re.Match[str]) -> None:
    status = match.group(1).lower()
    belief.set_fact("sim", "locked" if status.startswith("locked") else status)


def _mode(belief: TelecomBelief, match: re.Match[str]) -> None:
    mode = match.group(1).rstrip(".")
    belief.set_fact("network_mode", "4g_5g_preferred" if mode == "4g_5g_preferred" else "other")


def _apn_name(belief: TelecomBelief, match: re.Match[str]) -> None:
    belief.set_fact("apn_name", "broken" if _value(match) == "broken" else "ok")


def _mmsc(belief: TelecomBelief, match: re.Match[str]) -> None:
    belief.set_fact("mmsc_url", "missing" if _value(match) == "Not Set" else "set")


def _apn_reset_applied(belief: TelecomBelief, match: re.Match[str]) -> None:
    belief.set_fact("apn_reset", None)
    belief.set_fact("apn_name", "ok")
    belief.set_fact("mmsc_url", "set")


def _vpn_level(belief: TelecomBelief, match: re.Match[str]) -> None:
    belief.set_fact("vpn", "poor" if match.group(1).upper() == "POOR" else "connected")


def _payment(belief: TelecomBelief, match: re.Match[str]) -> None:
    belief.payment_made = True
    belief.bills_seen = False  # the bills changed: a new listing is worth it


def _goal_check(belief: TelecomBelief, match: re.Match[str]) -> None:
    belief.intent = _GOAL_CHECK_INTENT.get(match.group(1), belief.intent)


_Handler = Callable[[TelecomBelief, re.Match[str]], None]
_USER_PATTERNS: tuple[tuple[re.Pattern[str], _Handler], ...] = tuple(
    (re.compile(pattern), handler)
    for pattern, handler in (
        # facts the customer states
        (r"My phone number is ([\d()+\- ]*\d)", lambda b, m: setattr(b, "phone_number", m[1])),
        (r"My location is ([^.]+)", lambda b, m: b._location(m[1])),
        (r"My full name is ([^.]+)", lambda b, m: setattr(b, "full_name", m[1].strip())),
        (r"My date of birth is (\d{4}-\d{2}-\d{2})", lambda b, m: setattr(b, "birth_date", m[1])),
        (r"still not resolved: (\w+) shows", _goal_check),
        # the status bar (alone, or after an action's result)
        (r"Status Bar: (.*?🔋 \d+%)", lambda b, m: b._status_bar(m[1].split(" | "))),
        # check_network_status
        (r"Airplane Mode: (ON|OFF)", _switch("airplane_mode")),
        (r"SIM Card Status: (\w+)", _sim),
        (r"Mobile Data Enabled: (Yes|No)", _switch("mobile_data")),
        (r"Data Roaming Enabled: (Yes|No)", _switch("data_roaming")),
        (r"Cellular Network Type: (\w+)", lambda b, m: b.set_fact("network_type", m[1])),
        # single checks and the results of actions
        (r"Airplane Mode is now (ON|OFF)", _switch("airplane_mode")),
        (r"Mobile Data is now (ON|OFF)", _switch("mobile_data")),
        (r"Data Roaming is now (ON|OFF)", _switch("data_roaming")),
        (r"Data Saver [Mm]ode is (?:now )?(ON|OFF)", _switch("data_saver")),
        (r"Wi-Fi Calling is (?:now|currently turned) (ON|OFF)", _switch("wifi_calling")),
        (r"Your SIM card is active", _fact("sim", "active")),
        (r"No SIM card detected", _fact("sim", "missing")),
        (r"SIM card is locked", _fact("sim", "locked")),
        (r"SIM card re-seated", lambda b, m: b.set_fact("sim", None)),
        (r"Network Mode(?: Preference| set to)?: (\w+)", _mode),
        (r"Current APN Name: ([^\n]*)", _apn_name),
        (r"MMSC URL \(for picture messages\): ([^\n]*)", _mmsc),
        (r"APN settings will reset at reboot", _fact("apn_reset", "pending")),
        (r"Resetting APN settings", _apn_reset_applied),
        (r"VPN is ON and connected", _fact("vpn", "connected")),
        (r"PerformanceLevel\.(\w+)", _vpn_level),
        (r"VPN is turned (?:OFF|ON in settings, but currently not connected)", _fact("vpn", "off")),
        (r"VPN disconnected successfully|No active VPN connection", _fact("vpn", "off")),
        (r"App 'messaging' has permission for: ([^.\n]*)", lambda b, m: b._permissions(m[1])),
        (r"App 'messaging' currently has no permissions", lambda b, m: b._permissions("")),
        (
            r"Permission '(sms|storage)' granted to app 'messaging'",
            lambda b, m: b.set_fact(f"{m[1]}_permission", "granted"),
        ),
        (r"Speed Test Result: [\d.]+ Mbps \(([A-Za-z ]+)\)", lambda b, m: b._speed(m[1])),
        (r"Speed test failed", lambda b, m: b._speed(None)),
        (r"messaging app can send MMS", _fact("mms", "can_send")),
        (r"messaging app cannot send MMS", _fact("mms", "cannot_send")),
        (r"Payment of [\d.]+ USD has been made", _payment),
    )
)
