"""The telecom agent's action templates: what it can do in one turn, with arguments filled in.

A template is one agent move whose arguments come from the agent's `TelecomBelief`: ask the
customer for a fact; call one of the agent's tools (the customer id, line id or bill id are
those the episode revealed; every agent tool has a template except `get_customer_by_id`, since
customer ids only come from the other lookups, and `get_details_by_id` serves the customer's
lines only); ask the customer to check or change one thing on the phone (a
message whose structured `UserRequest` names exactly one user tool call, so the scripted user
acts on it exactly); transfer to a human (the tool call, then the policy's announcement); end.

Each template also says when it applies: only when it can be formed (issue 53). A lookup or an
account change needs its ids (no customer id for a lookup, no line for a change, no overdue
bill to collect, no payment request to pay); a question is asked twice at most, and not once
answered. A check or a change on the phone can always be formed: whether the phone needs it
(airplane mode reported on, a check whose answer is current) is for the agent to read from
the features, and so is whether the policy allows a change (resume a line whose contract
ended, buy data beyond the 2 GB a cycle allows). Transfer and end always apply.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from tau_env.actions import Action, CallTool, SendMessage, Stop
from tau_env.messages import RequestedToolCall, UserRequest
from tau_env.transfer import TRANSFER_ANNOUNCEMENT, TRANSFER_TOOL
from tau_env.wrappers.rl.telecom_belief import TelecomBelief

__all__ = ["CHECK_READS", "MAX_REFUEL_GB", "TEMPLATES", "Progress", "Template"]

MAX_REFUEL_GB = 2.0
"""The policy's limit on data bought per line and billing cycle."""

_REBOOT = "reboot_device"
_ASKS = 2
"""How often the agent may ask for the same fact (a customer may leave it out once)."""
_SUSPEND_REASON = "The customer asked to suspend the line."

Kind = Literal["ask", "lookup", "account", "check", "fix", "end"]
"""ask: a fact from the customer; lookup/account: an agent tool that reads/writes; check/fix:
a phone tool that reads/writes, run by the customer; end: transfer or end the conversation."""


@dataclass
class Progress:
    """What the agent did so far in the episode (its own moves, not the world's state).

    Attributes:
        counts: Template name -> times taken.
        fresh: Checks whose answer is current (nothing that can alter it changed since).
        changed_since_reboot: Whether the phone or the account changed since the last restart
            (restarting again without a change would change nothing).
    """

    counts: dict[str, int] = field(default_factory=dict)
    fresh: set[str] = field(default_factory=set)
    changed_since_reboot: bool = False
    _before: tuple[str, frozenset[str], bool] | None = None

    def record(self, template: Template) -> None:
        """Count a move; a change makes the checks it can affect stale."""
        self._before = (template.name, frozenset(self.fresh), self.changed_since_reboot)
        self.counts[template.name] = self.counts.get(template.name, 0) + 1
        if template.kind in ("fix", "account"):
            self.fresh -= {*_GENERAL_CHECKS, *template.affects}
            self.changed_since_reboot = template.name != _REBOOT
        if template.kind == "check":
            self.fresh.add(template.name)

    def undo(self) -> None:
        """Forget the last recorded move, so it may be asked again.

        For a customer who did not do it, or did not say what it showed.
        """
        if self._before is None:
            return
        name, fresh, changed = self._before
        self.counts[name] -= 1
        if not self.counts[name]:
            del self.counts[name]
        self.fresh, self.changed_since_reboot = set(fresh), changed
        self._before = None


Applies = Callable[[TelecomBelief, Progress], bool]


@dataclass(frozen=True)
class Template:
    """One agent move.

    Attributes:
        name: Identifier (features and logs use it).
        kind: See `Kind`.
        applies: Whether the move can apply now (the action mask).
        build: The actions that make the move, from the belief (only called when it applies).
        affects: For changes: the specific checks whose answer the change can alter (every
            change can alter the general checks: status bar, network status, speed, MMS).
        forgets: For changes on the phone: the device facts the change makes unknown until
            the customer says what the phone shows now.
        reads: For checks: the device facts the answer states.
    """

    name: str
    kind: Kind
    applies: Applies
    build: Callable[[TelecomBelief], list[Action]]
    affects: tuple[str, ...] = ()
    forgets: tuple[str, ...] = ()
    reads: tuple[str, ...] = ()


_GENERAL_CHECKS = ("check_status_bar", "check_network_status", "run_speed_test", "check_mms")
"""Checks whose answer sums up the phone's state: any change can alter them."""


def _always(belief: TelecomBelief, progress: Progress) -> bool:
    return True


def _request(text: str, tool: str, **arguments: Any) -> Callable[[TelecomBelief], list[Action]]:
    call = RequestedToolCall(name=tool, arguments=arguments)
    message = SendMessage(content=text, request=UserRequest(tool_calls=[call]))
    return lambda belief: [message]


def _ask(fact: str, text: str) -> Callable[[TelecomBelief], list[Action]]:
    return _ask_many((fact,), text)


def _ask_many(facts: tuple[str, ...], text: str) -> Callable[[TelecomBelief], list[Action]]:
    message = SendMessage(content=text, request=UserRequest(facts=list(facts)))
    return lambda belief: [message]


def _call(
    tool: str, **arguments: Callable[[TelecomBelief], Any]
) -> Callable[[TelecomBelief], list[Action]]:
    return lambda belief: [
        CallTool(name=tool, arguments={key: fill(belief) for key, fill in arguments.items()})
    ]


def _customer(belief: TelecomBelief) -> str | None:
    return belief.customer_id


def _line(belief: TelecomBelief) -> str | None:
    return belief.line_id


def _has_line(belief: TelecomBelief, progress: Progress) -> bool:
    return belief.line_id is not None


def _check(name: str, text: str, tool: str, **arguments: Any) -> Template:
    return Template(
        name,
        "check",
        _always,
        _request(text, tool, **arguments),
        reads=CHECK_READS[name],
    )


CHECK_READS: dict[str, tuple[str, ...]] = {
    "check_status_bar": ("airplane_mode",),
    "check_network_status": ("airplane_mode", "sim", "mobile_data", "data_roaming"),
    "check_sim_status": ("sim",),
    "check_apn_settings": ("apn_name", "mmsc_url"),
    "check_network_mode": ("network_mode",),
    "run_speed_test": ("speed",),
    "check_data_saver": ("data_saver",),
    "check_vpn": ("vpn",),
    "check_wifi_calling": ("wifi_calling",),
    "check_messaging_permissions": ("sms_permission", "storage_permission"),
    "check_mms": ("mms",),
}
"""Each check -> the device facts its answer states (an answer without them is asked again)."""


def _fix(
    name: str,
    text: str,
    tool: str,
    affects: tuple[str, ...] = (),
    forgets: tuple[str, ...] = (),
    **arguments: Any,
) -> Template:
    return Template(name, "fix", _always, _request(text, tool, **arguments), affects, forgets)


def _line_change(
    name: str, applies: Applies, **arguments: Callable[[TelecomBelief], Any]
) -> Template:
    """An account change: the agent tool ``name`` on the customer's line (plus ``arguments``)."""
    return Template(
        name, "account", applies, _call(name, customer_id=_customer, line_id=_line, **arguments)
    )


def _refuel_amount(belief: TelecomBelief) -> float:
    return round(MAX_REFUEL_GB - (belief.data_refueled or 0.0), 2)


def _transfer(belief: TelecomBelief) -> list[Action]:
    summary = "The customer's problem cannot be solved with the tools and policy available."
    return [
        CallTool(name=TRANSFER_TOOL, arguments={"summary": summary}),
        SendMessage(content=TRANSFER_ANNOUNCEMENT),
    ]


TEMPLATES: tuple[Template, ...] = (
    # -- facts from the customer ---------------------------------------------------------------
    Template(
        "ask_phone_number",
        "ask",
        lambda b, p: b.phone_number is None and p.counts.get("ask_phone_number", 0) < _ASKS,
        _ask("phone_number", "Could you tell me the phone number of the line with the problem?"),
    ),
    Template(
        "ask_name_and_birth_date",
        "ask",
        lambda b, p: (
            (b.full_name is None or b.birth_date is None)
            and p.counts.get("ask_name_and_birth_date", 0) < _ASKS
        ),
        _ask_many(
            ("full_name", "date_of_birth"), "Could you tell me your full name and date of birth?"
        ),
    ),
    Template(
        "ask_location",
        "ask",
        lambda b, p: b.abroad is None and p.counts.get("ask_location", 0) < _ASKS,
        _ask("location", "What is your location at the moment: at home or abroad?"),
    ),
    # -- the agent's lookups -------------------------------------------------------------------
    Template(
        "get_customer_by_phone",
        "lookup",
        lambda b, p: b.phone_number is not None and b.customer_id is None,
        _call("get_customer_by_phone", phone_number=lambda b: b.phone_number),
    ),
    Template(
        "get_customer_by_name",
        "lookup",
        lambda b, p: b.full_name is not None and b.birth_date is not None and b.customer_id is None,
        _call("get_customer_by_name", full_name=lambda b: b.full_name, dob=lambda b: b.birth_date),
    ),
    Template(
        "get_line_details",
        "lookup",
        lambda b, p: bool(b.candidate_lines),
        _call("get_details_by_id", id=lambda b: b.candidate_lines[0]),
    ),
    Template(
        "get_bills",
        "lookup",
        lambda b, p: b.customer_id is not None and not b.bills_seen,
        _call("get_bills_for_customer", customer_id=_customer),
    ),
    Template(
        "get_data_usage",
        "lookup",
        lambda b, p: b.line_id is not None and b.data_used is None,
        _call("get_data_usage", customer_id=_customer, line_id=_line),
    ),
    # -- the agent's account changes -----------------------------------------------------------
    Template(
        "send_payment_request",
        "account",
        lambda b, p: b.overdue_bill_id is not None and not b.payment_requested,
        _call("send_payment_request", customer_id=_customer, bill_id=lambda b: b.overdue_bill_id),
    ),
    _line_change("resume_line", _has_line),
    _line_change("suspend_line", _has_line, reason=lambda b: _SUSPEND_REASON),
    _line_change("enable_roaming", _has_line),
    _line_change("disable_roaming", _has_line),
    _line_change("refuel_data", _has_line, gb_amount=_refuel_amount),
    # -- checks on the phone -------------------------------------------------------------------
    _check(
        "check_status_bar",
        "What does the status bar at the top of your screen show?",
        "check_status_bar",
    ),
    _check(
        "check_network_status",
        "Could you open your network status and read it to me?",
        "check_network_status",
    ),
    _check("check_sim_status", "Could you check the status of your SIM card?", "check_sim_status"),
    _check("check_apn_settings", "Could you check your APN settings?", "check_apn_settings"),
    _check(
        "check_network_mode",
        "Could you check your preferred network mode?",
        "check_network_mode_preference",
    ),
    _check("run_speed_test", "Could you run a speed test?", "run_speed_test"),
    _check(
        "check_data_saver",
        "Could you check your data saver status?",
        "check_data_restriction_status",
    ),
    _check("check_vpn", "Could you check your VPN status?", "check_vpn_status"),
    _check(
        "check_wifi_calling",
        "Could you check your Wi-Fi calling status?",
        "check_wifi_calling_status",
    ),
    _check(
        "check_messaging_permissions",
        "Could you check the permissions of your messaging app?",
        "check_app_permissions",
        app_name="messaging",
    ),
    _check("check_mms", "Could you check whether you can send an MMS message?", "can_send_mms"),
    # -- changes on the phone ------------------------------------------------------------------
    _fix(
        "turn_airplane_mode_off",
        "Please turn airplane mode off.",
        "toggle_airplane_mode",
        ("check_vpn",),
        ("airplane_mode", "signal", "network_type"),
    ),
    _fix(
        "reseat_sim_card",
        "Please remove the SIM card and insert it again.",
        "reseat_sim_card",
        ("check_sim_status",),
        ("sim", "signal", "network_type"),
    ),
    _fix(
        "turn_mobile_data_on",
        "Please turn mobile data on.",
        "toggle_data",
        (),
        ("mobile_data",),
    ),
    _fix(
        "turn_data_roaming_on",
        "Please turn data roaming on.",
        "toggle_roaming",
        (),
        ("data_roaming",),
    ),
    _fix(
        "turn_data_saver_off",
        "Please turn data saver mode off.",
        "toggle_data_saver_mode",
        ("check_data_saver",),
        ("data_saver",),
    ),
    _fix(
        "set_network_mode_4g_5g",
        "Please set the network mode to 4G/5G preferred.",
        "set_network_mode_preference",
        ("check_network_mode",),
        ("network_mode", "network_type"),
        mode="4g_5g_preferred",
    ),
    _fix(
        "reset_apn_settings",
        "Please reset your APN settings.",
        "reset_apn_settings",
        ("check_apn_settings",),
        ("apn_reset",),
    ),
    _fix(
        _REBOOT,
        "Please restart your phone.",
        "reboot_device",
        ("check_apn_settings", "check_vpn"),
        ("apn_reset", "apn_name", "mmsc_url", "signal", "network_type"),
    ),
    _fix(
        "disconnect_vpn",
        "Please disconnect the VPN.",
        "disconnect_vpn",
        ("check_vpn",),
        ("vpn",),
    ),
    _fix(
        "turn_wifi_calling_off",
        "Please turn Wi-Fi calling off.",
        "toggle_wifi_calling",
        ("check_wifi_calling",),
        ("wifi_calling",),
    ),
    _fix(
        "grant_sms_permission",
        "Please grant the SMS permission to your messaging app.",
        "grant_app_permission",
        ("check_messaging_permissions",),
        ("sms_permission",),
        app_name="messaging",
        permission="sms",
    ),
    _fix(
        "grant_storage_permission",
        "Please grant the storage permission to your messaging app.",
        "grant_app_permission",
        ("check_messaging_permissions",),
        ("storage_permission",),
        app_name="messaging",
        permission="storage",
    ),
    Template(
        "make_payment",
        "fix",
        lambda b, p: b.payment_requested and not b.payment_made,
        _request("I sent you a payment request: please pay it on your phone.", "make_payment"),
    ),
    # -- endings -------------------------------------------------------------------------------
    Template("transfer", "end", _always, _transfer),
    Template("end", "end", _always, lambda belief: [Stop()]),
)
"""Every template, in the order of the Discrete action index."""
