"""The user's 30 tools on their own phone, in the reference's order.

Read tools live in `phone_checks`, write tools in `phone_actions`; this module fixes their
order, which is the order of the user's ``tool`` index in the action space.
"""

from __future__ import annotations

from tau_env.domains.telecom.phone_actions import (
    connect_vpn,
    disconnect_vpn,
    grant_app_permission,
    make_payment,
    reboot_device,
    reseat_sim_card,
    reset_apn_settings,
    set_apn_settings,
    set_network_mode_preference,
    toggle_airplane_mode,
    toggle_data,
    toggle_data_saver_mode,
    toggle_roaming,
    toggle_wifi,
    toggle_wifi_calling,
)
from tau_env.domains.telecom.phone_checks import (
    can_send_mms,
    check_apn_settings,
    check_app_permissions,
    check_app_status,
    check_data_restriction_status,
    check_installed_apps,
    check_network_mode_preference,
    check_network_status,
    check_payment_request,
    check_sim_status,
    check_status_bar,
    check_vpn_status,
    check_wifi_calling_status,
    check_wifi_status,
    run_speed_test,
)

__all__ = ["USER_TOOLS"]

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
