"""The user's side of the telecom world: their phone and their surroundings.

``device`` is the phone as its owner can see and change it (radios, SIM, APN, VPN, apps);
``surroundings`` is what the phone cannot change by itself: where the user is, the signal the
towers there give, and the state of the user's line at the company (kept in step with the
agent's database by the sync rule in `sync.py`). Both are single records (`Slot`s). Field
names, order and defaults follow the reference, whose ``user_db.toml`` may omit any of them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from tau_env.domains.telecom.constants import DEFAULT_APN_NAME, DEFAULT_MMS_APN, DEFAULT_MMSC_URL
from tau_env.state import Database, Slot

__all__ = [
    "APNSettings",
    "AppPermissions",
    "AppStatus",
    "NetworkMode",
    "NetworkStatus",
    "NetworkTechnology",
    "PaymentRequest",
    "PerformanceLevel",
    "PhoneState",
    "SignalStrength",
    "SimStatus",
    "Surroundings",
    "TelecomUserDB",
    "TelecomUserData",
    "VpnDetails",
]

SimStatus = Literal["active", "missing", "locked_pin", "locked_puk"]
NetworkTechnology = Literal["none", "2G", "3G", "4G", "5G"]
NetworkMode = Literal["4g_5g_preferred", "4g_only", "3g_only", "2g_only"]
SignalStrength = Literal["none", "poor", "fair", "good", "excellent"]
PerformanceLevel = Literal["unknown", "poor", "fair", "good", "excellent"]
NetworkStatus = Literal["connected", "searching", "no_service", "emergency_only"]
APNName = Literal["internet", "broken"]


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class APNSettings(_Record):
    """How the phone reaches the carrier's data and picture-message services."""

    apn_name: APNName = Field(default=DEFAULT_APN_NAME, description="internet, or broken.")
    reset_at_reboot: bool = Field(
        default=False, description="Whether the next reboot restores the default settings."
    )
    mms_apn: str | None = Field(default=DEFAULT_MMS_APN, description="APN used for MMS.")
    mmsc_url: str | None = Field(
        default=DEFAULT_MMSC_URL, description="MMS centre address; MMS fails without it."
    )
    mms_proxy: str | None = Field(default=None, description="MMS proxy host, if any.")
    mms_port: int | None = Field(default=None, description="MMS proxy port, if any.")


class VpnDetails(_Record):
    """The VPN connection the phone is using."""

    server_address: str | None = Field(default=None, description="VPN server.")
    protocol: str | None = Field(default=None, description="VPN protocol.")
    server_performance: PerformanceLevel = Field(
        default="unknown", description="How well the server performs; poor slows data 10x."
    )


class AppPermissions(_Record):
    """The permissions tracked for an app."""

    sms: bool = Field(default=False, description="May send and read SMS/MMS.")
    storage: bool = Field(default=False, description="May use the phone's storage.")
    phone: bool = Field(default=False, description="May place calls.")
    network: bool = Field(default=False, description="May use the network.")


class AppStatus(_Record):
    """An installed app and its permissions."""

    app_name: str = Field(description="The app's name.")
    permissions: AppPermissions = Field(default_factory=AppPermissions)


def _default_apps() -> dict[str, AppStatus]:
    return {
        "messaging": AppStatus(
            app_name="messaging",
            permissions=AppPermissions(sms=True, storage=True, phone=True),
        ),
        "browser": AppStatus(
            app_name="browser", permissions=AppPermissions(network=True, storage=True)
        ),
    }


class PhoneState(_Record):
    """Everything about the user's phone (the reference's ``MockPhoneAttributes``)."""

    sim_card_status: SimStatus = Field(default="active", description="SIM card state.")
    sim_card_missing: bool = Field(default=False, description="SIM card not seated.")
    airplane_mode: bool = Field(default=False, description="All radios off.")
    network_signal_strength: SignalStrength = Field(default="good", description="Cell signal.")
    network_technology_connected: NetworkTechnology = Field(
        default="5G", description="Cell technology in use."
    )
    network_connection_status: NetworkStatus = Field(
        default="connected", description="Cellular service state."
    )
    battery_level: int = Field(default=80, description="Battery, percent.")
    data_enabled: bool = Field(default=True, description="Mobile data switch.")
    roaming_enabled: bool = Field(default=False, description="Data roaming switch.")
    network_mode_preference: NetworkMode = Field(
        default="4g_5g_preferred", description="Preferred cell technology."
    )
    active_apn_settings: APNSettings = Field(default_factory=APNSettings)
    wifi_enabled: bool = Field(default=False, description="Wi-Fi radio.")
    wifi_connected: bool = Field(default=False, description="Joined a Wi-Fi network.")
    wifi_ssid: str | None = Field(default=None, description="Joined network's name.")
    wifi_signal_strength: SignalStrength = Field(default="none", description="Wi-Fi signal.")
    wifi_calling_enabled: bool = Field(default=False, description="Wi-Fi calling switch.")
    wifi_calling_mms_over_wifi: bool = Field(
        default=False, description="Send MMS over Wi-Fi (the carrier does not support it)."
    )
    data_saver_mode: bool = Field(default=False, description="Data saver; slows data 5x.")
    vpn_enabled_setting: bool = Field(default=False, description="VPN turned on in settings.")
    vpn_connected: bool = Field(default=False, description="VPN tunnel up.")
    vpn_details: VpnDetails | None = Field(default=None, description="The VPN in use.")
    app_statuses: dict[str, AppStatus] = Field(default_factory=_default_apps)


def _default_signal() -> dict[NetworkTechnology, SignalStrength]:
    return {"2G": "poor", "3G": "fair", "4G": "good", "5G": "excellent"}


class PaymentRequest(_Record):
    """A bill the agent asked the user to pay."""

    bill_id: str = Field(description="The bill.")
    amount_due: float = Field(description="USD.")
    paid: bool = Field(default=False, description="Set when the user pays.")


class Surroundings(_Record):
    """What the user's phone depends on but cannot change itself."""

    name: str | None = Field(default=None, description="The user's name.")
    phone_number: str | None = Field(default=None, description="The number of the phone.")
    is_abroad: bool = Field(default=False, description="The user is travelling abroad.")
    roaming_allowed: bool = Field(
        default=False, description="The line allows roaming (copied from the company's data)."
    )
    signal_strength: dict[NetworkTechnology, SignalStrength] = Field(
        default_factory=_default_signal, description="Signal per technology where the user is."
    )
    mobile_data_usage_exceeded: bool = Field(
        default=False, description="The line used up its data (copied from the company's data)."
    )
    line_active: bool = Field(
        default=True, description="The line is active (copied from the company's data)."
    )
    payment_request: PaymentRequest | None = Field(
        default=None, description="A pending payment request from the agent."
    )


class TelecomUserData(_Record):
    """Layout of the telecom ``user_db.toml`` / ``user_db.json`` file."""

    device: PhoneState = Field(default_factory=PhoneState)
    surroundings: Surroundings = Field(default_factory=Surroundings)


class TelecomUserDB(Database):
    """The user side's view of their phone and surroundings for one episode."""

    data_model = TelecomUserData
    device: Slot[PhoneState]
    surroundings: Slot[Surroundings]
