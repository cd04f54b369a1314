"""Named constants of the telecom domain: the fixed calendar, the phone's physics, fixed texts.

Every number that the device simulation or the agent tools depend on lives here, so that the
rules in `device.py` read as rules and not as tables.
"""

from __future__ import annotations

import datetime as dt
from typing import Final

__all__ = [
    "ADVICE_BY_DESCRIPTION",
    "DATA_SAVER_FACTOR",
    "DEFAULT_APN_NAME",
    "DEFAULT_MMSC_URL",
    "DEFAULT_MMS_APN",
    "NETWORK_MODES",
    "NOW",
    "PERMISSION_NAMES",
    "POOR_VPN_FACTOR",
    "SIGNAL_FACTOR",
    "SIGNAL_TOKEN",
    "SPEED_RANGE_MBPS",
    "SPEED_THRESHOLDS",
    "TODAY",
    "TRANSFER_RESULT",
    "VPN_DEFAULT_PERFORMANCE",
    "VPN_DEFAULT_PROTOCOL",
    "VPN_DEFAULT_SERVER",
]

TODAY: Final = dt.date(2025, 2, 25)
"""The domain's fixed "today" (the policy says it is 2025-02-25)."""

NOW: Final = dt.datetime(2025, 2, 25, 12, 8)
"""The domain's fixed "now" (12:08 EST on `TODAY`)."""

TRANSFER_RESULT: Final = "Transfer successful"

# -- the phone's physics -------------------------------------------------------------------------

SPEED_RANGE_MBPS: Final[dict[str, tuple[float, float]]] = {
    "2G": (0.1, 0.4),
    "3G": (1.0, 5.0),
    "4G": (10.0, 100.0),
    "5G": (50.0, 500.0),
    "none": (0.0, 0.0),
}
"""Download speed range per network technology; a speed test reports the middle of it."""

SIGNAL_FACTOR: Final[dict[str, float]] = {
    "poor": 0.2,
    "fair": 0.5,
    "good": 0.8,
    "excellent": 1.0,
    "none": 0.0,
}
"""Share of the technology's speed that a signal strength lets through."""

POOR_VPN_FACTOR: Final = 0.1
"""Speed multiplier while connected to a VPN server whose performance is poor."""

DATA_SAVER_FACTOR: Final = 0.2
"""Speed multiplier while data saver mode is on."""

SPEED_THRESHOLDS: Final[tuple[tuple[float, str], ...]] = (
    (1.0, "Very Poor"),
    (5.0, "Poor"),
    (25.0, "Fair"),
    (100.0, "Good"),
)
"""Upper bounds (exclusive) of each speed description; anything faster is "Excellent"."""

ADVICE_BY_DESCRIPTION: Final[dict[str, str]] = {
    "Very Poor": "Connection is very slow. Basic web browsing might be difficult.",
    "Poor": "Connection is slow. Web browsing may be sluggish, streaming difficult.",
    "Fair": "Connection is okay for web browsing and some standard definition streaming.",
    "Good": "Connection is good for most activities, including HD streaming.",
    "Excellent": "Connection is very fast.",
}
"""The sentence a speed test adds after its result (the reference's wording: a tool output)."""

SIGNAL_TOKEN: Final[dict[str, str]] = {
    "none": "📵 No Signal",
    "poor": "📶¹ Poor",
    "fair": "📶² Fair",
    "good": "📶³ Good",
    "excellent": "📶⁴ Excellent",
}
"""Status-bar token per cellular signal strength."""

NETWORK_MODES: Final = ("4g_5g_preferred", "4g_only", "3g_only", "2g_only")
"""Valid network mode preferences, in the order error messages list them."""

PERMISSION_NAMES: Final = ("sms", "storage", "phone", "network")
"""Permissions tracked for each app, in display order."""

DEFAULT_APN_NAME: Final = "internet"
DEFAULT_MMS_APN: Final = "mms"
DEFAULT_MMSC_URL: Final = "http://mms.carrier.com/mms/wapenc"

VPN_DEFAULT_SERVER: Final = "192.168.1.1"
VPN_DEFAULT_PROTOCOL: Final = "OpenVPN"
VPN_DEFAULT_PERFORMANCE: Final = "excellent"
"""What a fresh VPN connection looks like. Built anew on every connect: nothing is shared."""
