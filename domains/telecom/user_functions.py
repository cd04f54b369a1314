"""User-side helpers that task files may call: breaking the phone, and assertions on it.

They are never offered to the user. Names, arguments and effects follow the reference's
non-tool methods of its user toolkit (``turn_data_off`` toggles and searches, ``turn_data_on``
does not, and so on), because its task files name them and its assertions depend on them.
"""

from __future__ import annotations

from typing import Literal

from tau_env.domains.telecom import device
from tau_env.domains.telecom.constants import PERMISSION_NAMES
from tau_env.domains.telecom.tools import Number
from tau_env.domains.telecom.user_data_model import PhoneState, TelecomUserDB
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
    phone = db.device.edit()
    surroundings = db.surroundings.get()
    if device.toggle_airplane_mode(phone, surroundings) != on:
        device.toggle_airplane_mode(phone, surroundings)


@env_function(side="user")
def turn_airplane_mode_on(db: TelecomUserDB) -> str:
    """Turn airplane mode on."""
    _set_airplane_mode(db, True)
    return "Airplane Mode is now ON."


@env_function(side="user")
def turn_airplane_mode_off(db: TelecomUserDB) -> str:
    """Turn airplane mode off."""
    _set_airplane_mode(db, False)
    return "Airplane Mode is now OFF."


@env_function(side="user")
def unseat_sim_card(db: TelecomUserDB) -> str:
    """Take the SIM card out (fixed by the user tool ``reseat_sim_card``)."""
    phone = db.device.edit()
    phone.sim_card_missing = True
    device.network_search(phone, db.surroundings.get())
    return "SIM card un-seated successfully."


@env_function(side="user")
def lock_sim_card(db: TelecomUserDB, mode: Literal["pin", "puk"]) -> str:
    """Lock the SIM with a PIN or PUK code; no tool can unlock it."""
    phone = db.device.edit()
    phone.sim_card_status = "locked_pin" if mode == "pin" else "locked_puk"
    device.network_search(phone, db.surroundings.get())
    return f"SIM card locked successfully in {mode} mode."


def _toggle_data(phone: PhoneState, db: TelecomUserDB) -> bool:
    phone.data_enabled = not phone.data_enabled
    device.network_search(phone, db.surroundings.get())
    return phone.data_enabled


@env_function(side="user")
def turn_data_on(db: TelecomUserDB) -> str:
    """Turn mobile data on (without a network search, as in the reference)."""
    db.device.edit().data_enabled = True
    return "Data connection restored."


@env_function(side="user")
def turn_data_off(db: TelecomUserDB) -> str:
    """Turn mobile data off."""
    phone = db.device.edit()
    if _toggle_data(phone, db):
        _toggle_data(phone, db)
    return "Data connection broken."


def _set_roaming(db: TelecomUserDB, on: bool) -> None:
    phone = db.device.edit()
    for _ in range(2):
        phone.roaming_enabled = not phone.roaming_enabled
        device.network_search(phone, db.surroundings.get())
        if phone.roaming_enabled == on:
            return


@env_function(side="user")
def turn_roaming_on(db: TelecomUserDB) -> str:
    """Turn data roaming on in the phone's settings."""
    _set_roaming(db, True)
    return "Data Roaming is now ON."


@env_function(side="user")
def turn_roaming_off(db: TelecomUserDB) -> str:
    """Turn data roaming off in the phone's settings."""
    _set_roaming(db, False)
    return "Data Roaming is now OFF."


@env_function(side="user")
def turn_data_saver_mode_on(db: TelecomUserDB) -> str:
    """Turn data saver on."""
    db.device.edit().data_saver_mode = True
    return "Data Saver Mode is now ON."


@env_function(side="user")
def turn_data_saver_mode_off(db: TelecomUserDB) -> str:
    """Turn data saver off."""
    db.device.edit().data_saver_mode = False
    return "Data Saver Mode is now OFF."


@env_function(side="user")
def break_apn_settings(db: TelecomUserDB) -> str:
    """Break the data APN: no service until ``reset_apn_settings`` and a reboot."""
    phone = db.device.edit()
    phone.active_apn_settings.apn_name = "broken"
    device.network_search(phone, db.surroundings.get())
    return "APN settings broken. Please call reset_apn_settings() to fix."


@env_function(side="user")
def break_apn_mms_setting(db: TelecomUserDB) -> str:
    """Remove the MMS centre address: no MMS until ``reset_apn_settings`` and a reboot."""
    db.device.edit().active_apn_settings.mmsc_url = None
    return "APN MMS setting broken. Please call reset_apn_settings() to fix."


@env_function(side="user")
def set_wifi_calling(db: TelecomUserDB, enabled: bool, mms_over_wifi: bool | None = None) -> str:
    """Set Wi-Fi calling, and MMS over Wi-Fi when given."""
    phone = db.device.edit()
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
    phone = db.device.edit()
    device.connect_vpn(phone)
    if phone.vpn_details is None:
        raise ToolError("The VPN is connected without details; cannot break it")
    phone.vpn_details.server_performance = "poor"
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
    setattr(db.device.edit().app_statuses[app_name].permissions, permission, False)
    return f"Permission '{permission}' removed from app '{app_name}'."


@env_function(side="user")
def simulate_network_search(db: TelecomUserDB) -> str:
    """Make the phone search for a network now (as it does after most setting changes)."""
    device.network_search(db.device.edit(), db.surroundings.get())
    return "Network search done."


# -- assertions ----------------------------------------------------------------------------------


@env_function(side="user", mutates_state=False)
def assert_airplane_mode_status(db: TelecomUserDB, expected_status: bool) -> bool:
    """True when airplane mode is as expected."""
    return db.device.get().airplane_mode == expected_status


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
def assert_mobile_roaming_status(db: TelecomUserDB, expected_status: bool) -> bool:
    """True when the phone's data roaming switch is as expected."""
    return db.device.get().roaming_enabled == expected_status


@env_function(side="user", mutates_state=False)
def assert_mobile_data_saver_mode_status(db: TelecomUserDB, expected_status: bool) -> bool:
    """True when data saver is as expected."""
    return db.device.get().data_saver_mode == expected_status


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


@env_function(side="user", mutates_state=False)
def assert_mobile_data_usage_exceeded(db: TelecomUserDB, expected_status: bool) -> bool:
    """True when the line's data is used up (or not) as expected."""
    return db.surroundings.get().mobile_data_usage_exceeded == expected_status


USER_ENV_FUNCTIONS = (
    set_user_info,
    set_user_location,
    turn_airplane_mode_on,
    turn_airplane_mode_off,
    unseat_sim_card,
    lock_sim_card,
    turn_data_on,
    turn_data_off,
    turn_roaming_on,
    turn_roaming_off,
    turn_data_saver_mode_on,
    turn_data_saver_mode_off,
    break_apn_settings,
    break_apn_mms_setting,
    set_wifi_calling,
    break_vpn,
    remove_app_permission,
    simulate_network_search,
    assert_airplane_mode_status,
    assert_service_status,
    assert_mobile_data_status,
    assert_mobile_roaming_status,
    assert_mobile_data_saver_mode_status,
    assert_internet_speed,
    assert_internet_not_excellent,
    assert_can_send_mms,
    assert_mobile_data_usage_exceeded,
)
