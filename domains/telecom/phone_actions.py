r"""The user's 15 write tools: changing their own phone (results as the reference).

Most end their result with ``"\nStatus Bar: ..."`` so the user sees what happened. Mistakes
such as an unknown network mode or permission give a failure *text*, not an error, exactly as
in the reference.
"""

from __future__ import annotations

from tau_env.domains.telecom import device
from tau_env.domains.telecom.constants import NETWORK_MODES
from tau_env.domains.telecom.phone_checks import on_off
from tau_env.domains.telecom.user_data_model import APNSettings, TelecomUserDB
from tau_env.tools import tool

__all__ = ["WRITE_TOOLS"]


def _with_status(db: TelecomUserDB, text: str) -> str:
    return f"{text}\nStatus Bar: {device.status_bar(db.device.get())}"


def _toggle(db: TelecomUserDB, flag: str, label: str, *, search: bool = True) -> str:
    """Flip the phone's switch `flag` (then let it search for a network), and say so."""
    phone = db.device.edit_top()
    on = not getattr(phone, flag)
    setattr(phone, flag, on)
    if search:
        device.network_search(phone, db.surroundings.get())
    return _with_status(db, f"{label} is now {on_off(on)}.")


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
    phone = db.device.edit_top()
    phone.network_mode_preference = mode  # type: ignore[assignment]  # checked just above
    device.network_search(phone, db.surroundings.get())
    return _with_status(db, f"Preferred Network Mode set to: {mode}")


@tool(side="user", kind="write")
def toggle_airplane_mode(db: TelecomUserDB) -> str:
    """Turn Airplane Mode on or off. When on, every radio is off: cellular, Wi-Fi and Bluetooth."""
    on = device.toggle_airplane_mode(db.device.edit_top(), db.surroundings.get())
    return _with_status(db, f"Airplane Mode is now {on_off(on)}.")


@tool(side="user", kind="write")
def reseat_sim_card(db: TelecomUserDB) -> str:
    """Take the SIM card out and put it back in, which can fix a SIM the phone does not see."""
    phone = db.device.edit_top()
    phone.sim_card_missing = False
    device.network_search(phone, db.surroundings.get())
    return _with_status(db, "SIM card re-seated successfully.")


@tool(side="user", kind="write")
def toggle_data(db: TelecomUserDB) -> str:
    """Turn mobile data on or off: whether the phone may use the cellular network for internet."""
    return _toggle(db, "data_enabled", "Mobile Data")


@tool(side="user", kind="write")
def toggle_roaming(db: TelecomUserDB) -> str:
    """Turn data roaming on or off: whether the phone may use data on networks abroad."""
    return _toggle(db, "roaming_enabled", "Data Roaming")


@tool(side="user", kind="write")
def toggle_data_saver_mode(db: TelecomUserDB) -> str:
    """Turn Data Saver on or off. When on, it uses less data, which can make data slower."""
    return _toggle(db, "data_saver_mode", "Data Saver Mode", search=False)


@tool(side="user", kind="write")
def set_apn_settings(db: TelecomUserDB, apn_settings: APNSettings) -> str:
    """Replace your phone's APN settings.

    Args:
        apn_settings: The new settings (apn_name, mmsc_url, ...).
    """
    phone = db.device.edit_top()
    phone.active_apn_settings = apn_settings
    device.network_search(phone, db.surroundings.get())
    return _with_status(db, f"APN settings set to: {apn_settings.apn_name}")


@tool(side="user", kind="write")
def reset_apn_settings(db: TelecomUserDB) -> str:
    """Restore the default APN settings; they take effect at the next reboot."""
    db.device.edit_part("active_apn_settings").reset_at_reboot = True
    device.network_search(db.device.edit_top(), db.surroundings.get())
    return _with_status(db, "APN settings will reset at reboot.")


@tool(side="user", kind="write")
def toggle_wifi(db: TelecomUserDB) -> str:
    """Turn the Wi-Fi radio on or off (not possible while Airplane Mode is on)."""
    if db.device.get().airplane_mode:
        return _with_status(db, "Cannot change Wi-Fi settings while Airplane Mode is ON.")
    phone = db.device.edit_top()
    phone.wifi_enabled = not phone.wifi_enabled
    if not phone.wifi_enabled:
        phone.wifi_connected = False
        phone.wifi_ssid = None
        phone.wifi_signal_strength = "none"
    return _with_status(db, f"Wi-Fi is now {on_off(phone.wifi_enabled)}.")


@tool(side="user", kind="write")
def toggle_wifi_calling(db: TelecomUserDB) -> str:
    """Turn Wi-Fi Calling on or off.

    It places calls over Wi-Fi, which helps where the cellular signal is weak.
    """
    return _toggle(db, "wifi_calling_enabled", "Wi-Fi Calling", search=False)


@tool(side="user", kind="write")
def connect_vpn(db: TelecomUserDB) -> str:
    """Connect to your VPN."""
    if db.device.get().vpn_connected:
        return "VPN already connected."
    device.connect_vpn(db.device.edit_top())
    return _with_status(db, "VPN connected successfully.")


@tool(side="user", kind="write")
def disconnect_vpn(db: TelecomUserDB) -> str:
    """Disconnect the VPN: traffic no longer goes through a VPN server (speed may change)."""
    if not db.device.get().vpn_connected:
        return _with_status(db, "No active VPN connection to disconnect.")
    device.disconnect_vpn(db.device.edit_top())
    return _with_status(db, "VPN disconnected successfully.")


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
        setattr(db.device.edit_part("app_statuses", app_name, "permissions"), permission, True)
        message = f"Success. Permission '{permission}' granted to app '{app_name}'."
    return _with_status(db, message)


@tool(side="user", kind="write")
def reboot_device(db: TelecomUserDB) -> str:
    """Restart your phone, which clears many temporary glitches and reconnects to the network."""
    report = device.reboot(db.device.edit_top(), db.surroundings.get())
    return _with_status(db, report)


@tool(side="user", kind="write")
def make_payment(db: TelecomUserDB) -> str:
    """Pay the bill the agent sent you a payment request for."""
    request = db.surroundings.get().payment_request
    if request is None:
        return "You do not have a payment request."
    edited = db.surroundings.edit_part("payment_request")
    assert edited is not None
    edited.paid = True
    return f"Payment of {request.amount_due} USD has been made for bill {request.bill_id}."


WRITE_TOOLS = (
    set_network_mode_preference,
    toggle_airplane_mode,
    reseat_sim_card,
    toggle_data,
    toggle_roaming,
    toggle_data_saver_mode,
    set_apn_settings,
    reset_apn_settings,
    toggle_wifi,
    toggle_wifi_calling,
    connect_vpn,
    disconnect_vpn,
    grant_app_permission,
    reboot_device,
    make_payment,
)
