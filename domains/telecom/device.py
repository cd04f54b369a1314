"""The phone's simulation rules: network search, mobile data, speed test, MMS, status bar.

Pure functions over a `PhoneState` and the user's `Surroundings`. Functions that change the
phone take this episode's editable copy and assign its fields (new values only, never a change
inside a field's value, so the one-level copy of ``db.device.edit_top()`` is enough); the
others only read. The rules, numbers and texts follow the reference exactly, because the
tasks' assertions and the recorded tool outputs depend on them.
"""

from __future__ import annotations

from tau_env.domains.telecom.constants import (
    DATA_SAVER_FACTOR,
    POOR_VPN_FACTOR,
    SIGNAL_FACTOR,
    SIGNAL_TOKEN,
    SPEED_RANGE_MBPS,
    SPEED_THRESHOLDS,
    VPN_DEFAULT_PERFORMANCE,
    VPN_DEFAULT_PROTOCOL,
    VPN_DEFAULT_SERVER,
)
from tau_env.domains.telecom.user_data_model import (
    APNSettings,
    NetworkTechnology,
    PhoneState,
    SimStatus,
    Surroundings,
    VpnDetails,
)

__all__ = [
    "can_send_mms",
    "connect_vpn",
    "disconnect_vpn",
    "mobile_data_working",
    "network_search",
    "reboot",
    "sim_status",
    "speed_test",
    "status_bar",
    "toggle_airplane_mode",
]

_TECHNOLOGY_FOR_MODE: dict[str, NetworkTechnology] = {
    "4g_only": "4G",
    "3g_only": "3G",
    "2g_only": "2G",
}


def sim_status(phone: PhoneState) -> SimStatus:
    """The SIM state the phone reports: a SIM that is not seated counts as missing."""
    return "missing" if phone.sim_card_missing else phone.sim_card_status


def network_search(phone: PhoneState, surroundings: Surroundings) -> None:
    """Look for a cell network and set status, technology and signal from the outcome.

    With a working SIM the phone connects using its preferred technology (5G when the
    surroundings offer any 5G signal under ``4g_5g_preferred``, else 4G) at the signal the
    surroundings give for it. A missing or locked SIM, airplane mode, a broken APN or an
    inactive line each leave the phone without service.
    """
    if sim_status(phone) == "active":
        phone.network_connection_status = "connected"
        signals = surroundings.signal_strength
        mode = phone.network_mode_preference
        technology: NetworkTechnology
        if mode == "4g_5g_preferred":
            technology = "4G" if signals.get("5G", "none") == "none" else "5G"
        else:
            technology = _TECHNOLOGY_FOR_MODE.get(mode, "4G")
        phone.network_technology_connected = technology
        phone.network_signal_strength = signals.get(technology, "none")
    else:
        _lose_service(phone)
    if (
        phone.airplane_mode
        or phone.active_apn_settings.apn_name == "broken"
        or not surroundings.line_active
    ):
        _lose_service(phone)


def _lose_service(phone: PhoneState) -> None:
    phone.network_connection_status = "no_service"
    phone.network_technology_connected = "none"
    phone.network_signal_strength = "none"


def mobile_data_working(phone: PhoneState, surroundings: Surroundings) -> bool:
    """Whether mobile data gets through.

    It needs: airplane mode off, some signal, service, roaming allowed on both the phone and
    the line when abroad, the data switch on, and data left on the plan.
    """
    if phone.airplane_mode or phone.network_signal_strength == "none":
        return False
    if phone.network_connection_status == "no_service":
        return False
    if surroundings.is_abroad and not (phone.roaming_enabled and surroundings.roaming_allowed):
        return False
    return phone.data_enabled and not surroundings.mobile_data_usage_exceeded


def speed_test(phone: PhoneState, surroundings: Surroundings) -> tuple[float | None, str]:
    """The measured download speed in Mbps and its description.

    Speed = middle of the technology's range x signal factor, x 0.1 through a poor VPN
    server, x 0.2 with data saver on, rounded to 2 decimals. Without working data the result
    is ``(None, "No Connection")``.

    Example: the default phone (5G, excellent signal) measures 275.0 Mbps, "Excellent".
    """
    if not mobile_data_working(phone, surroundings):
        return None, "No Connection"
    factor = 1.0
    vpn = phone.vpn_details
    if phone.vpn_connected and vpn is not None and vpn.server_performance == "poor":
        factor = POOR_VPN_FACTOR
    if phone.data_saver_mode:
        factor *= DATA_SAVER_FACTOR
    low, high = SPEED_RANGE_MBPS.get(phone.network_technology_connected, (0.0, 0.0))
    signal = SIGNAL_FACTOR.get(phone.network_signal_strength, 0.0)
    speed = round((low + high) / 2.0 * signal * factor, 2)
    for bound, description in SPEED_THRESHOLDS:
        if speed < bound:
            return speed, description
    return speed, "Excellent"


def can_send_mms(phone: PhoneState, surroundings: Surroundings) -> bool:
    """Whether the messaging app can send a picture message.

    It needs working mobile data on 3G or better, MMS-over-Wi-Fi not forced on through Wi-Fi
    calling (the carrier does not support it), an MMS centre address, and a messaging app
    allowed to use SMS and storage.
    """
    if not mobile_data_working(phone, surroundings):
        return False
    if phone.network_technology_connected == "2G":
        return False
    if phone.wifi_calling_enabled and phone.wifi_calling_mms_over_wifi:
        return False
    if phone.active_apn_settings.mmsc_url is None:
        return False
    messaging = phone.app_statuses.get("messaging")
    return messaging is not None and messaging.permissions.sms and messaging.permissions.storage


def status_bar(phone: PhoneState) -> str:
    """The icons at the top of the screen, joined by ``" | "``."""
    tokens: list[str] = []
    if phone.airplane_mode:
        tokens.append("✈️ Airplane Mode")
    else:
        tokens.append(SIGNAL_TOKEN.get(phone.network_signal_strength, "📵 No Signal"))
        technology = phone.network_technology_connected
        if technology != "none":
            tokens.append(technology)
        if phone.data_enabled and technology != "none":
            tokens.append("📱 Data Enabled")
            if phone.data_saver_mode:
                tokens.append("🔽 Data Saver")
        else:
            tokens.append("📵 Data Disabled")
    if phone.wifi_enabled and phone.wifi_connected:
        tokens.append(f"📡 Connected to {phone.wifi_ssid}" if phone.wifi_ssid else "📡 Enabled")
    if phone.vpn_connected:
        tokens.append("🔒 VPN Connected")
    tokens.append(f"🔋 {phone.battery_level}%")
    return " | ".join(tokens)


def _forget_wifi_network(phone: PhoneState) -> None:
    phone.wifi_connected = False
    phone.wifi_ssid = None
    phone.wifi_signal_strength = "none"


def toggle_airplane_mode(phone: PhoneState, surroundings: Surroundings) -> bool:
    """Flip airplane mode, then search for a network; returns the new state.

    Turning it off starts a search (and drops any Wi-Fi network); turning it on drops the
    Wi-Fi network and disconnects the VPN.
    """
    was_on = phone.airplane_mode
    phone.airplane_mode = not was_on
    if was_on:
        phone.network_connection_status = "searching"
        if phone.wifi_enabled:
            _forget_wifi_network(phone)
    else:
        _forget_wifi_network(phone)
        disconnect_vpn(phone)
    network_search(phone, surroundings)
    return phone.airplane_mode


def connect_vpn(phone: PhoneState) -> bool:
    """Connect to a fresh default VPN; False when a VPN was already connected.

    The details are built anew for each connection, so changing one phone's VPN can never
    change the VPN another episode connects to.
    """
    if phone.vpn_connected:
        return False
    phone.vpn_connected = True
    phone.vpn_details = VpnDetails(
        server_address=VPN_DEFAULT_SERVER,
        protocol=VPN_DEFAULT_PROTOCOL,
        server_performance=VPN_DEFAULT_PERFORMANCE,
    )
    return True


def disconnect_vpn(phone: PhoneState) -> bool:
    """Drop the VPN connection; False when none was connected."""
    if not phone.vpn_connected:
        return False
    phone.vpn_connected = False
    phone.vpn_details = None
    return True


def reboot(phone: PhoneState, surroundings: Surroundings) -> str:
    """Restart the phone: apply a pending APN reset, then search for a network.

    Returns:
        What the phone reports while restarting, one step per line.
    """
    steps = []
    if phone.active_apn_settings.reset_at_reboot:
        steps.append("Resetting APN settings...")
        phone.active_apn_settings = APNSettings()
    steps.append("Restarting network services...")
    phone.network_connection_status = "searching"
    network_search(phone, surroundings)
    return "\n".join(steps)
