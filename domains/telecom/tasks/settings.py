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


SERVICE, DATA, MMS = "service_issue", "mobile_data_issue", "mms_issue"

SETTINGS: tuple[Setting, ...] = (
    Setting(
        name="data_saver_on",
        summary="Data saver is on by choice (it slows data, which neither calls nor MMS need).",
        calls=lambda s: [_user("turn_data_saver_mode_on")],
        benign_for=frozenset({SERVICE, MMS}),
        conflicts=frozenset({"data_saver_mode_on"}),
    ),
    Setting(
        name="vpn_connected",
        summary="A VPN to a fast server is connected (it does not slow data).",
        calls=lambda s: [_user("connect_vpn")],
        benign_for=frozenset({SERVICE, DATA, MMS}),
        conflicts=frozenset({"bad_vpn", "airplane_mode_on"}),
    ),
    Setting(
        name="wifi_calling_on",
        summary="Wi-Fi calling is on, MMS over Wi-Fi off (harmless for service and data).",
        calls=lambda s: [_user("set_wifi_calling", enabled=True, mms_over_wifi=False)],
        benign_for=frozenset({SERVICE, DATA}),
        conflicts=frozenset({"bad_wifi_calling"}),
    ),
    Setting(
        name="network_3g_only",
        summary="The phone is set to 3G only (enough for calls and MMS).",
        calls=lambda s: [_user("set_network_mode_preference", mode="3g_only")],
        benign_for=frozenset({SERVICE, MMS}),
        conflicts=frozenset({"bad_network_preference"}),
    ),
    Setting(
        name="network_4g_only",
        summary="The phone is set to 4G only (enough for calls and MMS).",
        calls=lambda s: [_user("set_network_mode_preference", mode="4g_only")],
        benign_for=frozenset({SERVICE, MMS}),
        conflicts=frozenset({"bad_network_preference"}),
    ),
    Setting(
        name="data_off",
        summary="Mobile data is off by choice (calls and texts do not need it).",
        calls=lambda s: [_user("turn_data_off")],
        benign_for=frozenset({SERVICE}),
        conflicts=frozenset({"data_mode_off"}),
    ),
)
"""Every setting, by order of drawing."""
