"""What a telecom agent knows so far, read from the messages it really receives.

`TelecomBelief` is the agent's notebook for one episode: the facts the customer told it (phone
number, name, location), what its own tools returned (customer, line, bills, data usage) and
what the customer reported from the phone (status bar, SIM, APN, VPN, permissions, speed
test...). It is filled only from the agent's observation: the customer's words (read for their
meaning by `tau_env.wrappers.rl.telecom_reading`, whatever the wording, casing or omissions),
the agent's tool results and the policy text (today's date). Nothing is read from the task,
the databases or the gold plan.

Device facts are small vocabularies (`DEVICE_FACTS`); an unknown fact is absent. Every reading
overwrites the older one, in the order the text states them, so the newest report wins.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from tau_env.wrappers.rl.telecom_reading import DEVICE_FACTS, intent_of, read_report

__all__ = ["DEVICE_FACTS", "INTENTS", "TelecomBelief"]

INTENTS: tuple[str, ...] = ("service", "mobile_data", "mms")
"""Why the customer calls: no service, slow or missing mobile data, MMS that do not send."""

_DATE = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")


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
        unresolved: The customer's last reply said the problem is still there.
        not_followed: The customer's last reply said it did not do what was asked.
        read_device: The device facts the customer's last reply stated.
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
    unresolved: bool = False
    not_followed: bool = False
    read_device: set[str] = field(default_factory=set)

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
        """Update from a customer message: opening, facts, and what the phone showed."""
        if not self.opened:
            self.opened = True
            self.intent = intent_of(text)
        self.unresolved = self.not_followed = False
        self.read_device = set()
        for name, value in read_report(text):
            if name == "vpn" and value == "present":  # an icon: the performance stays known
                current = self.device.get("vpn")
                self.set_fact("vpn", current if current in ("connected", "poor") else "connected")
                self.read_device.add(name)
            elif name in DEVICE_FACTS:
                self.set_fact(name, value)
                self.read_device.add(name)
            elif name == "unresolved":
                self.unresolved = True
            elif name == "not_followed":
                self.not_followed = True
            elif name == "paid":
                self.payment_made = True
                self.bills_seen = False  # the bills changed: a new listing is worth it
            elif name == "abroad":
                self.abroad = value == "yes"
            elif name in ("phone_number", "full_name", "birth_date"):
                setattr(self, name, value)
        if self.intent is None and self.unresolved:  # the goal check the customer ran says it
            for fact, intent in (("speed", "mobile_data"), ("mms", "mms"), ("signal", "service")):
                if fact in self.read_device:
                    self.intent = intent
                    break

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


def _digits(value: object) -> str:
    return re.sub(r"\D", "", str(value or ""))
