r"""The user's 30 tools: looking at and changing their own phone (results as the reference).

Most changes end their result with ``"\\nStatus Bar: ..."`` so the user sees what happened.
Mistakes such as an unknown network mode or permission give a failure *text*, not an error,
exactly as in the reference.
"""

from __future__ import annotations

from tau_env.domains.telecom import device
from tau_env.domains.telecom.constants import ADVICE_BY_DESCRIPTION, NETWORK_MODES
from tau_env.domains.telecom.user_data_model import APNSettings, PhoneState, TelecomUserDB
from tau_env.tools import tool

__all__ = ["USER_TOOLS"]


def _with_status(db: TelecomUserDB, text: str) -> str:
    return f"{text}\nStatus Bar: {device.status_bar(db.device.get())}"


def _on_off(value: bool) -> str:
    return "ON" if value else "OFF"


def _yes_no(value: bool) -> str:
    return "Yes" if value else "No"


@tool(side="user", kind="read")
def check_status_bar(db: TelecomUserDB) -> str:
    """Show the icons at the top of your screen.

    They show the signal, the network type, mobile data (on, off, data saver), Wi-Fi, VPN and
    the battery level.
    """
    return f"Status Bar: {device.status_bar(db.device.get())}"


@tool(side="user", kind="read")
def check_network_status(db: TelecomUserDB) -> str:
    """Show your phone's connection to cellular networks and Wi-Fi.

    It lists airplane mode, the SIM, service, signal, network type, mobile data, data roaming
    and Wi-Fi.
    """
    phone = db.device.get()
    lines = [
        f"Airplane Mode: {_on_off(phone.airplane_mode)}",
        f"SIM Card Status: {device.sim_status(phone)}",
        f"Cellular Connection: {phone.network_connection_status}",
        f"Cellular Signal: {phone.network_signal_strength}",
        f"Cellular Network Type: {phone.network_technology_connected}",
        f"Mobile Data Enabled: {_yes_no(phone.data_enabled)}",
        f"Data Roaming Enabled: {_yes_no(phone.roaming_enabled)}",
        f"Wi-Fi Radio: {_on_off(phone.wifi_enabled)}",
        f"Wi-Fi Connected: {_yes_no(phone.wifi_connected)}",
    ]
    if phone.wifi_connected:
        lines.append(f"Connected Wi-Fi Network: {phone.wifi_ssid}")
    return "\n".join(lines)


@tool(side="user", kind="read")
def check_network_mode_preference(db: TelecomUserDB) -> str:
    """Show which type of cellular network your phone prefers."""
    return f"Network Mode Preference: {db.device.get().network_mode_preference}"


@tool(side="user", kind="write")
def set_network_mode_preference(db: TelecomUserDB, mode: str) -> str:
    """Choose which type of cellular network your phone prefers (5G, 4G, 3G or 2G).

    Faster networks use more battery.

    Args:
        mode: One of 4g_5g_preferred, 4g_only, 3g_only, 2g_only.
    """
    if mode not in NETWORK_MODES:
        return _with_status(
            db,
            f"Failed to set network mode: '{mode}' is not a valid option. "
            f"Please use one of: {', '.join(NETWORK_MODES)}",
        )
    phone = db.device.edit()
    phone.network_mode_preference = mode  # type: ignore[assignment]  # checked just above
    device.network_search(phone, db.surroundings.get())
    return _with_status(db, f"Preferred Network Mode set to: {mode}")


@tool(side="user", kind="read")
def run_speed_test(db: TelecomUserDB) -> str:
    """Measure your phone's current download speed and say what it is good enough for."""
    speed, description = device.speed_test(db.device.get(), db.surroundings.get())
    if speed is None:
        return f"Speed test failed: {description or 'Could not determine speed'}."
    advice = ADVICE_BY_DESCRIPTION.get(description, "")
    return f"Speed Test Result: {speed:.2f} Mbps ({description}). {advice}"


@tool(side="user", kind="write")
def toggle_airplane_mode(db: TelecomUserDB) -> str:
    """Turn Airplane Mode on or off. When on, every radio is off: cellular, Wi-Fi and Bluetooth."""
    on = device.toggle_airplane_mode(db.device.edit(), db.surroundings.get())
    return _with_status(db, f"Airplane Mode is now {_on_off(on)}.")


_SIM_TEXT = {
    "active": "Your SIM card is active and working.",
    "missing": "No SIM card detected in the phone.",
    "locked_pin": "The SIM card is locked with a PIN code.",
    "locked_puk": "The SIM card is locked with a PUK code.",
}


@tool(side="user", kind="read")
def check_sim_status(db: TelecomUserDB) -> str:
    """Show whether your SIM card works: active, missing, or locked with a PIN or PUK code."""
    return _SIM_TEXT[device.sim_status(db.device.get())]


@tool(side="user", kind="write")
def reseat_sim_card(db: TelecomUserDB) -> str:
    """Take the SIM card out and put it back in, which can fix a SIM the phone does not see."""
    phone = db.device.edit()
    phone.sim_card_missing = False
    device.network_search(phone, db.surroundings.get())
    return _with_status(db, "SIM card re-seated successfully.")


@tool(side="user", kind="write")
def toggle_data(db: TelecomUserDB) -> str:
    """Turn mobile data on or off: whether the phone may use the cellular network for internet."""
    phone = db.device.edit()
    phone.data_enabled = not phone.data_enabled
    device.network_search(phone, db.surroundings.get())
    return _with_status(db, f"Mobile Data is now {_on_off(phone.data_enabled)}.")


@tool(side="user", kind="write")
def toggle_roaming(db: TelecomUserDB) -> str:
    """Turn data roaming on or off: whether the phone may use data on networks abroad."""
    phone = db.device.edit()
    phone.roaming_enabled = not phone.roaming_enabled
    device.network_search(phone, db.surroundings.get())
    return _with_status(db, f"Data Roaming is now {_on_off(phone.roaming_enabled)}.")


@tool(side="user", kind="read")
def check_data_restriction_status(db: TelecomUserDB) -> str:
    """Show whether a data-limiting feature (Data Saver) is on."""
    if db.device.get().data_saver_mode:
        return "Data Saver mode is ON (limits data usage)."
    return "Data Saver mode is OFF."


@tool(side="user", kind="write")
def toggle_data_saver_mode(db: TelecomUserDB) -> str:
    """Turn Data Saver on or off. When on, it uses less data, which can make data slower."""
    phone = db.device.edit()
    phone.data_saver_mode = not phone.data_saver_mode
    return _with_status(db, f"Data Saver Mode is now {_on_off(phone.data_saver_mode)}.")


@tool(side="user", kind="read")
def check_apn_settings(db: TelecomUserDB) -> str:
    """Show the APN settings your phone uses to reach the carrier's data network.

    They include the MMS centre address (MMSC URL) used for picture messages.
    """
    settings = db.device.get().active_apn_settings
    return (
        f"Current APN Name: {settings.apn_name or 'Not Set'}\n"
        f"MMSC URL (for picture messages): {settings.mmsc_url or 'Not Set'}\n"
        "(These are technical settings, usually best left unchanged.)"
    )


@tool(side="user", kind="write")
def set_apn_settings(db: TelecomUserDB, apn_settings: APNSettings) -> str:
    """Replace your phone's APN settings.

    Args:
        apn_settings: The new settings (apn_name, mmsc_url, ...).
    """
    phone = db.device.edit()
    phone.active_apn_settings = apn_settings
    device.network_search(phone, db.surroundings.get())
    return _with_status(db, f"APN settings set to: {apn_settings.apn_name}")


@tool(side="user", kind="write")
def reset_apn_settings(db: TelecomUserDB) -> str:
    """Restore the default APN settings; they take effect at the next reboot."""
    phone = db.device.edit()
    phone.active_apn_settings.reset_at_reboot = True
    device.network_search(phone, db.surroundings.get())
    return _with_status(db, "APN settings will reset at reboot.")


@tool(side="user", kind="read")
def check_wifi_status(db: TelecomUserDB) -> str:
    """Show whether Wi-Fi is on, which network it is joined to, and its signal."""
    phone = db.device.get()
    if not phone.wifi_enabled:
        return "Wi-Fi is turned OFF."
    if phone.wifi_connected:
        return (
            f"Wi-Fi is ON and connected to '{phone.wifi_ssid}'. "
            f"Signal strength: {phone.wifi_signal_strength}."
        )
    return "Wi-Fi is ON but not connected to any network."


@tool(side="user", kind="write")
def toggle_wifi(db: TelecomUserDB) -> str:
    """Turn the Wi-Fi radio on or off (not possible while Airplane Mode is on)."""
    if db.device.get().airplane_mode:
        return _with_status(db, "Cannot change Wi-Fi settings while Airplane Mode is ON.")
    phone = db.device.edit()
    phone.wifi_enabled = not phone.wifi_enabled
    if not phone.wifi_enabled:
        phone.wifi_connected = False
        phone.wifi_ssid = None
        phone.wifi_signal_strength = "none"
    return _with_status(db, f"Wi-Fi is now {_on_off(phone.wifi_enabled)}.")


@tool(side="user", kind="read")
def check_wifi_calling_status(db: TelecomUserDB) -> str:
    """Show whether Wi-Fi Calling (calls over Wi-Fi instead of the cellular network) is on."""
    return f"Wi-Fi Calling is currently turned {_on_off(db.device.get().wifi_calling_enabled)}."


@tool(side="user", kind="write")
def toggle_wifi_calling(db: TelecomUserDB) -> str:
    """Turn Wi-Fi Calling on or off.

    It places calls over Wi-Fi, which helps where the cellular signal is weak.
    """
    phone = db.device.edit()
    phone.wifi_calling_enabled = not phone.wifi_calling_enabled
    return _with_status(db, f"Wi-Fi Calling is now {_on_off(phone.wifi_calling_enabled)}.")


@tool(side="user", kind="read")
def check_vpn_status(db: TelecomUserDB) -> str:
    """Show whether a VPN is on and connected, with its connection details."""
    phone = db.device.get()
    if phone.vpn_connected:
        if phone.vpn_details is not None:
            return f"VPN is ON and connected. Details: {_vpn_details_text(phone)}"
        return "VPN is ON and connected (no specific details available)."
    if phone.vpn_enabled_setting:
        return "VPN is turned ON in settings, but currently not connected."
    return "VPN is turned OFF."


def _vpn_details_text(phone: PhoneState) -> str:
    """The details as the reference prints them: a dict whose performance is an enum repr."""
    details = phone.vpn_details
    assert details is not None
    level = details.server_performance
    return (
        f"{{'server_address': {details.server_address!r}, 'protocol': {details.protocol!r}, "
        f"'server_performance': <PerformanceLevel.{level.upper()}: {level!r}>}}"
    )


@tool(side="user", kind="write")
def connect_vpn(db: TelecomUserDB) -> str:
    """Connect to your VPN."""
    if db.device.get().vpn_connected:
        return "VPN already connected."
    device.connect_vpn(db.device.edit())
    return _with_status(db, "VPN connected successfully.")


@tool(side="user", kind="write")
def disconnect_vpn(db: TelecomUserDB) -> str:
    """Disconnect the VPN: traffic no longer goes through a VPN server (speed may change)."""
    if not db.device.get().vpn_connected:
        return _with_status(db, "No active VPN connection to disconnect.")
    device.disconnect_vpn(db.device.edit())
    return _with_status(db, "VPN disconnected successfully.")


@tool(side="user", kind="read")
def check_installed_apps(db: TelecomUserDB) -> str:
    """List the apps installed on your phone."""
    names = ", ".join(db.device.get().app_statuses)
    return f"The following apps are installed on the phone: {names}"


def _granted(phone: PhoneState, app_name: str) -> list[str] | None:
    app = phone.app_statuses.get(app_name)
    if app is None:
        return None
    permissions = app.permissions.model_dump()
    return [name.replace("_", " ").lower() for name, allowed in permissions.items() if allowed]


@tool(side="user", kind="read")
def check_app_status(db: TelecomUserDB, app_name: str) -> str:
    """Show an app's details, including the permissions it has.

    Args:
        app_name: The app's name, e.g. messaging.
    """
    granted = _granted(db.device.get(), app_name)
    if granted is None:
        return f"App '{app_name}' not found on this phone."
    lines = [f"Status for App: {app_name}"]
    if granted:
        lines.append(" - Permissions Granted:")
        lines += [f"   - {permission}" for permission in granted]
    else:
        lines.append(" - Permissions: None granted.")
    return "\n".join(lines)


@tool(side="user", kind="read")
def check_app_permissions(db: TelecomUserDB, app_name: str) -> str:
    """Show which permissions an app has (SMS, storage, phone, network).

    Args:
        app_name: The app's name, e.g. messaging.
    """
    granted = _granted(db.device.get(), app_name)
    if granted is None:
        return f"App '{app_name}' not found on this phone."
    if not granted:
        return f"App '{app_name}' currently has no permissions granted."
    return f"App '{app_name}' has permission for: {', '.join(granted)}."


@tool(side="user", kind="write")
def grant_app_permission(db: TelecomUserDB, app_name: str, permission: str) -> str:
    """Give an app a permission it needs to work, such as sms or storage.

    Args:
        app_name: The app's name, e.g. messaging.
        permission: The permission, in lower case: sms, storage, phone or network.
    """
    permission = permission.lower()
    app = db.device.get().app_statuses.get(app_name)
    if app is None:
        message = f"Error. App '{app_name}' not found. Cannot grant permission."
    elif permission not in type(app.permissions).model_fields:
        available = list(type(app.permissions).model_fields)
        message = (
            f"Error. Permission '{permission}' not tracked for app '{app_name}', "
            f"available permissions: {available}"
        )
    else:
        setattr(db.device.edit().app_statuses[app_name].permissions, permission, True)
        message = f"Success. Permission '{permission}' granted to app '{app_name}'."
    return _with_status(db, message)


@tool(side="user", kind="read")
def can_send_mms(db: TelecomUserDB) -> str:
    """Check whether your messaging app can send MMS (picture) messages."""
    if device.can_send_mms(db.device.get(), db.surroundings.get()):
        return "Your messaging app can send MMS messages."
    return "Your messaging app cannot send MMS messages."


@tool(side="user", kind="write")
def reboot_device(db: TelecomUserDB) -> str:
    """Restart your phone, which clears many temporary glitches and reconnects to the network."""
    report = device.reboot(db.device.edit(), db.surroundings.get())
    return _with_status(db, report)


@tool(side="user", kind="read")
def check_payment_request(db: TelecomUserDB) -> str:
    """Check whether the agent has sent you a request to pay a bill."""
    request = db.surroundings.get().payment_request
    if request is None:
        return "No payment request has been made."
    return f"You have a payment request for bill {request.bill_id} of {request.amount_due} USD."


@tool(side="user", kind="write")
def make_payment(db: TelecomUserDB) -> str:
    """Pay the bill the agent sent you a payment request for."""
    request = db.surroundings.get().payment_request
    if request is None:
        return "You do not have a payment request."
    edited = db.surroundings.edit().payment_request
    assert edited is not None
    edited.paid = True
    return f"Payment of {request.amount_due} USD has been made for bill {request.bill_id}."


USER_TOOLS = (
    check_status_bar,
    check_network_status,
    check_network_mode_preference,
    set_network_mode_preference,
    run_speed_test,
    toggle_airplane_mode,
    check_sim_status,
    reseat_sim_card,
    toggle_data,
    toggle_roaming,
    check_data_restriction_status,
    toggle_data_saver_mode,
    check_apn_settings,
    set_apn_settings,
    reset_apn_settings,
    check_wifi_status,
    toggle_wifi,
    check_wifi_calling_status,
    toggle_wifi_calling,
    check_vpn_status,
    connect_vpn,
    disconnect_vpn,
    check_installed_apps,
    check_app_status,
    check_app_permissions,
    grant_app_permission,
    can_send_mms,
    reboot_device,
    check_payment_request,
    make_payment,
)
