"""Customer settings that look like problems but are not: the benchmark's distractors.

Real customers keep data saver on, use a VPN, call over Wi-Fi or pin a network mode on
purpose. Each `Setting` here is harmless for some intents (the goal is reached with it in
place) and is part of the task's starting state; the policy says to leave such settings alone
and the DB check holds the agent to it, so "fix everything that looks unusual" fails. A setting
never appears in a task whose issues touch the same switch (`conflicts`), nor in an intent it
would break (`benign_for`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tau_env.domains.telecom.tasks.scenario import Scenario
from tau_env.tasks.model import EnvFunctionCall

__all__ = ["SETTINGS", "Setting"]


def _user(name: str, **arguments: object) -> EnvFunctionCall:
    return EnvFunctionCall(env_type="user", func_name=name, arguments=arguments)


@dataclass(frozen=True)
class Setting:
    """A harmless setting the customer chose.

    Attributes:
        name: Identifier (in task ids, after ``[KEEP:``).
        summary: One line for reviewers.
        calls: Setup calls that put it in place (run after the issues' setup).
        benign_for: Intents whose goal it does not affect.
        conflicts: Issues that touch the same switch (never combined with it).
    """

    name: str
    summary: str
    calls: Callable[[Scenario], list[EnvFunctionCall]]
    benign_for: frozenset[str]
    conflicts: frozenset[str] = frozenset()


def _one_call_setting(
    name: str,
    summary: str,
    benign_for: set[str],
    conflicts: set[str],
    tool_name: str,
    **arguments: object,
) -> Setting:
    """A setting the customer puts in place with one call of their own tool ``tool_name``."""
    return Setting(
        name=name,
        summary=summary,
        calls=lambda s: [_user(tool_name, **arguments)],
        benign_for=frozenset(benign_for),
        conflicts=frozenset(conflicts),
    )


SERVICE, DATA, MMS = "service_issue", "mobile_data_issue", "mms_issue"

SETTINGS: tuple[Setting, ...] = (
    _one_call_setting(
        "data_saver_on",
        "Data saver is on by choice (it slows data, which neither calls nor MMS need).",
        {SERVICE, MMS},
        {"data_saver_mode_on"},
        "turn_data_saver_mode_on",
    ),
    _one_call_setting(
        "vpn_connected",
        "A VPN to a fast server is connected (it does not slow data).",
        {SERVICE, DATA, MMS},
        {"bad_vpn", "airplane_mode_on"},
        "connect_vpn",
    ),
    _one_call_setting(
        "wifi_calling_on",
        "Wi-Fi calling is on, MMS over Wi-Fi off (harmless for service and data).",
        {SERVICE, DATA},
        {"bad_wifi_calling"},
        "set_wifi_calling",
        enabled=True,
        mms_over_wifi=False,
    ),
    _one_call_setting(
        "network_3g_only",
        "The phone is set to 3G only (enough for calls and MMS).",
        {SERVICE, MMS},
        {"bad_network_preference"},
        "set_network_mode_preference",
        mode="3g_only",
    ),
    _one_call_setting(
        "network_4g_only",
        "The phone is set to 4G only (enough for calls and MMS).",
        {SERVICE, MMS},
        {"bad_network_preference"},
        "set_network_mode_preference",
        mode="4g_only",
    ),
    _one_call_setting(
        "data_off",
        "Mobile data is off by choice (calls and texts do not need it).",
        {SERVICE},
        {"data_mode_off"},
        "turn_data_off",
    ),
)
"""Every setting, by order of drawing."""
