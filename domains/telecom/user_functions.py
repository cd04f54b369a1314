"""User-side helpers that task files may call: breaking the phone, and assertions on it.

They are never offered to the user. Names, arguments and effects follow the reference's
non-tool methods of its user toolkit (``turn_data_off`` toggles and searches, ``turn_data_on``
does not, and so on), because its task files name them and its assertions depend on them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from tau_env.domains.telecom import device
from tau_env.domains.telecom.constants import PERMISSION_NAMES
from tau_env.domains.telecom.tools import Number
from tau_env.domains.telecom.user_data_model import TelecomUserDB
from tau_env.errors import ToolError
from tau_env.tools import env_function

__all__ = ["USER_ENV_FUNCTIONS"]

_NETWORK_STATUSES = ("connected", "searching", "no_service", "emergency_only")


@env_function(side="user")
def set_user_info(db: TelecomUserDB, name: str, phone_number: str) -> str:
    """Say whose phone this is; from now on the sync rule ties it to that line."""
    surroundings = db.surroundings.edit()
    surroundings.name = name
    surroundings.phone_number = phone_number
    return f"User info set: {name}, {phone_number}"


@env_function(side="user")
def set_user_location(db: TelecomUserDB, abroad: bool) -> str:
    """Put the user abroad (True) or at home (False)."""
    db.surroundings.edit().is_abroad = abroad
    return f"User is now {'abroad' if abroad else 'at home'}."


def _set_airplane_mode(db: TelecomUserDB, on: bool) -> None:
    """The reference's way: toggle, and toggle again if that gave the wrong state."""
    phone = db.device.edit_top()
    surroundings = db.surroundings.get()
    if device.toggle_airplane_mode(phone, surroundings) != on:
        device.toggle_airplane_mode(phone, surroundings)


@env_function(side="user")
def unseat_sim_card(db: TelecomUserDB) -> str:
    """Take the SIM card out (fixed by the user tool ``reseat_sim_card``)."""
    phone = db.device.edit_top()
    phone.sim_card_missing = True
    device.network_search(phone, db.surroundings.get())
    return "SIM card un-seated successfully."


@env_function(side="user")
def lock_sim_card(db: TelecomUserDB, mode: Literal["pin", "puk"]) -> str:
    """Lock the SIM with a PIN or PUK code; no tool can unlock it."""
    phone = db.device.edit_top()
    phone.sim_card_status = "locked_pin" if mode == "pin" else "locked_puk"
    device.network_search(phone, db.surroundings.get())
    return f"SIM card locked successfully in {mode} mode."


@env_function(side="user")
def turn_data_on(db: TelecomUserDB) -> str:
    """Turn mobile data on (without a network search, as in the reference)."""
    db.device.edit_top().data_enabled = True
    return "Data connection restored."


@env_function(side="user")
def turn_data_off(db: TelecomUserDB) -> str:
    """Turn mobile data off."""
    _set_by_toggling(db, "data_enabled", False)
    return "Data connection broken."


def _set_by_toggling(db: TelecomUserDB, flag: str, on: bool) -> None:
    """Set the switch `flag` the reference's way: flip it, and flip again if that was wrong.

    The phone searches for a network after each flip.
    """
    phone = db.device.edit_top()
    for _ in range(2):
        setattr(phone, flag, not getattr(phone, flag))
        device.network_search(phone, db.surroundings.get())
        if getattr(phone, flag) == on:
            return


def _set_roaming(db: TelecomUserDB, on: bool) -> None:
    _set_by_toggling(db, "roaming_enabled", on)


def _set_data_saver_mode(db: TelecomUserDB, on: bool) -> None:
    db.device.edit_top().data_saver_mode = on


def _switch(name: str, label: str, set_to: Callable[[TelecomUserDB, bool], None], on: bool) -> Any:
    """The env function `name`: set a phone setting on or off, and say so."""
    said = f"{label} is now {'ON' if on else 'OFF'}."

    def switch(db: TelecomUserDB) -> str:
        set_to(db, on)
        return said

    switch.__name__ = switch.__qualname__ = name
    switch.__doc__ = f"Turn {label.lower()} {'on' if on else 'off'}."
    return env_function(side="user")(switch)


_SWITCHES = {
    f"turn_{setting}_{state}": _switch(f"turn_{setting}_{state}", label, set_to, state == "on")
    for setting, label, set_to in (
        ("airplane_mode", "Airplane Mode", _set_airplane_mode),
        ("roaming", "Data Roaming", _set_roaming),
        ("data_saver_mode", "Data Saver Mode", _set_data_saver_mode),
    )
    for state in ("on", "off")
}
"""``turn_<setting>_on`` / ``_off`` for the three settings the task files switch."""


@env_function(side="user")
def break_apn_settings(db: TelecomUserDB) -> str:
    """Break the data APN: no service until ``reset_apn_settings`` and a reboot."""
    db.device.edit_part("active_apn_settings").apn_name = "broken"
    device.network_search(db.device.edit_top(), db.surroundings.get())
    return "APN settings broken. Please call reset_apn_settings() to fix."


@env_function(side="user")
def break_apn_mms_setting(db: TelecomUserDB) -> str:
    """Remove the MMS centre address: no MMS until ``reset_apn_settings`` and a reboot."""
    db.device.edit_part("active_apn_settings").mmsc_url = None
    return "APN MMS setting broken. Please call reset_apn_settings() to fix."


@env_function(side="user")
def set_wifi_calling(db: TelecomUserDB, enabled: bool, mms_over_wifi: bool | None = None) -> str:
    """Set Wi-Fi calling, and MMS over Wi-Fi when given."""
    phone = db.device.edit_top()
    phone.wifi_calling_enabled = enabled
    message = f"Wi-Fi Calling is now {'ON' if enabled else 'OFF'}."
    if mms_over_wifi is not None:
        phone.wifi_calling_mms_over_wifi = mms_over_wifi
        message += f"\nMMS over Wi-Fi is now {'ON' if mms_over_wifi else 'OFF'}."
    return message


@env_function(side="user")
def break_vpn(db: TelecomUserDB) -> str:
    """Connect a VPN through a poor server, which cuts the data speed tenfold.

    Only this phone's connection is changed; later connections start from the defaults.
    """
    phone = db.device.edit_top()
    device.connect_vpn(phone)
    if phone.vpn_details is None:
        raise ToolError("The VPN is connected without details; cannot break it")
    db.device.edit_part("vpn_details").server_performance = "poor"
    return "VPN connection broken."


@env_function(side="user")
def remove_app_permission(db: TelecomUserDB, app_name: str, permission: str) -> str:
    """Take a permission away from an app."""
    permission = permission.lower()
    phone = db.device.get()
    if app_name not in phone.app_statuses:
        raise ToolError(f"App '{app_name}' not found. Cannot remove permission.")
    if permission not in PERMISSION_NAMES:
        raise ToolError(f"Permission '{permission}' not tracked for app '{app_name}'.")
    setattr(db.device.edit_part("app_statuses", app_name, "permissions"), permission, False)
    return f"Permission '{permission}' removed from app '{app_name}'."


@env_function(side="user")
def simulate_network_search(db: TelecomUserDB) -> str:
    """Make the phone search for a network now (as it does after most setting changes)."""
    device.network_search(db.device.edit_top(), db.surroundings.get())
    return "Network search done."


# -- assertions ----------------------------------------------------------------------------------


def _expected(name: str, part: str, flag: str) -> Any:
    """The assertion `name`: true when a flag of the phone (or its surroundings) is as expected."""

    def check(db: TelecomUserDB, expected_status: bool) -> bool:
        return bool(getattr(getattr(db, part).get(), flag) == expected_status)

    check.__name__ = check.__qualname__ = name
    check.__doc__ = f"True when the {part}'s ``{flag}`` is as expected."
    return env_function(side="user", mutates_state=False)(check)


_FLAG_CHECKS = {
    name: _expected(name, part, flag)
    for name, part, flag in (
        ("assert_airplane_mode_status", "device", "airplane_mode"),
        ("assert_mobile_roaming_status", "device", "roaming_enabled"),
        ("assert_mobile_data_saver_mode_status", "device", "data_saver_mode"),
        ("assert_mobile_data_usage_exceeded", "surroundings", "mobile_data_usage_exceeded"),
    )
}
"""Assertions that compare one flag of the phone (or the line) with the expected status."""


@env_function(side="user", mutates_state=False)
def assert_service_status(db: TelecomUserDB, expected_status: str) -> bool:
    """True when the cellular service status (connected, no_service...) is as expected."""
    if expected_status not in _NETWORK_STATUSES:
        raise ToolError(f"'{expected_status}' is not a valid NetworkStatus")
    return db.device.get().network_connection_status == expected_status


@env_function(side="user", mutates_state=False)
def assert_mobile_data_status(db: TelecomUserDB, expected_status: bool) -> bool:
    """True when mobile data works (or does not) as expected."""
    working = device.mobile_data_working(db.device.get(), db.surroundings.get())
    return working == expected_status


@env_function(side="user", mutates_state=False)
def assert_internet_speed(
    db: TelecomUserDB, expected_speed: Number, expected_desc: str | None = None
) -> bool:
    """True when a speed test gives at least `expected_speed` Mbps (and that description)."""
    speed, description = device.speed_test(db.device.get(), db.surroundings.get())
    fast_enough = (speed or 0.0) >= expected_speed
    if expected_desc is None:
        return fast_enough
    return fast_enough and description.lower() == expected_desc.lower()


@env_function(side="user", mutates_state=False)
def assert_internet_not_excellent(db: TelecomUserDB) -> bool:
    """True when a speed test does not report "Excellent"."""
    _, description = device.speed_test(db.device.get(), db.surroundings.get())
    return description.lower() != "excellent"


@env_function(side="user", mutates_state=False)
def assert_can_send_mms(db: TelecomUserDB, expected_status: bool) -> bool:
    """True when sending MMS works (or does not) as expected."""
    return device.can_send_mms(db.device.get(), db.surroundings.get()) == expected_status


USER_ENV_FUNCTIONS = (
    set_user_info,
    set_user_location,
    _SWITCHES["turn_airplane_mode_on"],
    _SWITCHES["turn_airplane_mode_off"],
    unseat_sim_card,
    lock_sim_card,
    turn_data_on,
    turn_data_off,
    _SWITCHES["turn_roaming_on"],
    _SWITCHES["turn_roaming_off"],
    _SWITCHES["turn_data_saver_mode_on"],
    _SWITCHES["turn_data_saver_mode_off"],
    break_apn_settings,
    break_apn_mms_setting,
    set_wifi_calling,
    break_vpn,
    remove_app_permission,
    simulate_network_search,
    _FLAG_CHECKS["assert_airplane_mode_status"],
    assert_service_status,
    assert_mobile_data_status,
    _FLAG_CHECKS["assert_mobile_roaming_status"],
    _FLAG_CHECKS["assert_mobile_data_saver_mode_status"],
    assert_internet_speed,
    assert_internet_not_excellent,
    assert_can_send_mms,
    _FLAG_CHECKS["assert_mobile_data_usage_exceeded"],
)
