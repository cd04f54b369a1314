"""The user's 15 read tools: looking at their own phone (texts as the reference).

Nothing here changes the phone. The texts, including quirks such as the enum repr in
`check_vpn_status`, are the reference's, because recorded trajectories are compared byte for
byte.
"""

from __future__ import annotations

from tau_env.domains.telecom import device
from tau_env.domains.telecom.constants import ADVICE_BY_DESCRIPTION
from tau_env.domains.telecom.user_data_model import PhoneState, TelecomUserDB
from tau_env.tools import tool

__all__ = ["READ_TOOLS", "on_off"]


def on_off(value: bool) -> str:
    """``ON`` or ``OFF``, as the phone writes switch states."""
    return "ON" if value else "OFF"


def _yes_no(value: bool) -> str:
    return "Yes" if value else "No"


_SIM_TEXT = {
    "active": "Your SIM card is active and working.",
    "missing": "No SIM card detected in the phone.",
    "locked_pin": "The SIM card is locked with a PIN code.",
    "locked_puk": "The SIM card is locked with a PUK code.",
}


def _vpn_details_text(phone: PhoneState) -> str:
    """The details as the reference prints them: a dict whose performance is an enum repr."""
    details = phone.vpn_details
    assert details is not None
    level = details.server_performance
    return (
        f"{{'server_address': {details.server_address!r}, 'protocol': {details.protocol!r}, "
        f"'server_performance': <PerformanceLevel.{level.upper()}: {level!r}>}}"
    )


def _granted(phone: PhoneState, app_name: str) -> list[str] | None:
    app = phone.app_statuses.get(app_name)
    if app is None:
        return None
    permissions = app.permissions.model_dump()
    return [name.replace("_", " ").lower() for name, allowed in permissions.items() if allowed]


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
        f"Airplane Mode: {on_off(phone.airplane_mode)}",
        f"SIM Card Status: {device.sim_status(phone)}",
        f"Cellular Connection: {phone.network_connection_status}",
        f"Cellular Signal: {phone.network_signal_strength}",
        f"Cellular Network Type: {phone.network_technology_connected}",
        f"Mobile Data Enabled: {_yes_no(phone.data_enabled)}",
        f"Data Roaming Enabled: {_yes_no(phone.roaming_enabled)}",
        f"Wi-Fi Radio: {on_off(phone.wifi_enabled)}",
        f"Wi-Fi Connected: {_yes_no(phone.wifi_connected)}",
    ]
    if phone.wifi_connected:
        lines.append(f"Connected Wi-Fi Network: {phone.wifi_ssid}")
    return "\n".join(lines)


@tool(side="user", kind="read")
def check_network_mode_preference(db: TelecomUserDB) -> str:
    """Show which type of cellular network your phone prefers."""
    return f"Network Mode Preference: {db.device.get().network_mode_preference}"


@tool(side="user", kind="read")
def run_speed_test(db: TelecomUserDB) -> str:
    """Measure your phone's current download speed and say what it is good enough for."""
    speed, description = device.speed_test(db.device.get(), db.surroundings.get())
    if speed is None:
        return f"Speed test failed: {description or 'Could not determine speed'}."
    advice = ADVICE_BY_DESCRIPTION.get(description, "")
    return f"Speed Test Result: {speed:.2f} Mbps ({description}). {advice}"


@tool(side="user", kind="read")
def check_sim_status(db: TelecomUserDB) -> str:
    """Show whether your SIM card works: active, missing, or locked with a PIN or PUK code."""
    return _SIM_TEXT[device.sim_status(db.device.get())]


@tool(side="user", kind="read")
def check_data_restriction_status(db: TelecomUserDB) -> str:
    """Show whether a data-limiting feature (Data Saver) is on."""
    if db.device.get().data_saver_mode:
        return "Data Saver mode is ON (limits data usage)."
    return "Data Saver mode is OFF."


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


@tool(side="user", kind="read")
def check_wifi_calling_status(db: TelecomUserDB) -> str:
    """Show whether Wi-Fi Calling (calls over Wi-Fi instead of the cellular network) is on."""
    return f"Wi-Fi Calling is currently turned {on_off(db.device.get().wifi_calling_enabled)}."


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


@tool(side="user", kind="read")
def check_installed_apps(db: TelecomUserDB) -> str:
    """List the apps installed on your phone."""
    names = ", ".join(db.device.get().app_statuses)
    return f"The following apps are installed on the phone: {names}"


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


@tool(side="user", kind="read")
def can_send_mms(db: TelecomUserDB) -> str:
    """Check whether your messaging app can send MMS (picture) messages."""
    if device.can_send_mms(db.device.get(), db.surroundings.get()):
        return "Your messaging app can send MMS messages."
    return "Your messaging app cannot send MMS messages."


@tool(side="user", kind="read")
def check_payment_request(db: TelecomUserDB) -> str:
    """Check whether the agent has sent you a request to pay a bill."""
    request = db.surroundings.get().payment_request
    if request is None:
        return "No payment request has been made."
    return f"You have a payment request for bill {request.bill_id} of {request.amount_due} USD."


READ_TOOLS = (
    check_status_bar,
    check_network_status,
    check_network_mode_preference,
    run_speed_test,
    check_sim_status,
    check_data_restriction_status,
    check_apn_settings,
    check_wifi_status,
    check_wifi_calling_status,
    check_vpn_status,
    check_installed_apps,
    check_app_status,
    check_app_permissions,
    can_send_mms,
    check_payment_request,
)
