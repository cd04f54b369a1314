"""User tools: exact texts, including the reference's quirks."""

from tests.domains.telecom.conftest import call, run


def test_check_network_status__lines(world):
    assert call(world, "user", "check_network_status") == "\n".join(
        [
            "Airplane Mode: OFF",
            "SIM Card Status: active",
            "Cellular Connection: connected",
            "Cellular Signal: excellent",
            "Cellular Network Type: 5G",
            "Mobile Data Enabled: Yes",
            "Data Roaming Enabled: No",
            "Wi-Fi Radio: OFF",
            "Wi-Fi Connected: No",
        ]
    )


def test_check_vpn_status__prints_the_enum_repr_of_the_reference(world):
    assert call(world, "user", "check_vpn_status") == "VPN is turned OFF."
    out = call(world, "user", "connect_vpn")
    assert out.startswith("VPN connected successfully.\nStatus Bar:") and "🔒 VPN Connected" in out
    assert call(world, "user", "connect_vpn") == "VPN already connected."
    call(world, "user", "disconnect_vpn")
    run(world, "user", "break_vpn")
    assert call(world, "user", "check_vpn_status") == (
        "VPN is ON and connected. Details: {'server_address': '192.168.1.1', "
        "'protocol': 'OpenVPN', 'server_performance': <PerformanceLevel.POOR: 'poor'>}"
    )
    call(world, "user", "disconnect_vpn")
    assert call(world, "user", "disconnect_vpn").startswith(
        "No active VPN connection to disconnect."
    )


def test_set_network_mode_preference__invalid_mode_is_a_failure_text(world):
    result = world.call_tool("user", "set_network_mode_preference", {"mode": "6g"})
    assert not result.error
    assert result.content.startswith(
        "Failed to set network mode: '6g' is not a valid option. Please use one of: "
        "4g_5g_preferred, 4g_only, 3g_only, 2g_only\nStatus Bar:"
    )
    assert (
        call(world, "user", "check_network_mode_preference")
        == "Network Mode Preference: 4g_5g_preferred"
    )


def test_app_permissions__texts(world):
    assert call(world, "user", "check_installed_apps") == (
        "The following apps are installed on the phone: messaging, browser, camera"
    )
    assert call(world, "user", "check_app_permissions", app_name="messaging") == (
        "App 'messaging' has permission for: sms, storage, phone."
    )
    assert call(world, "user", "check_app_status", app_name="browser") == (
        "Status for App: browser\n - Permissions Granted:\n   - storage\n   - network"
    )
    assert (
        call(world, "user", "check_app_permissions", app_name="maps")
        == "App 'maps' not found on this phone."
    )
    out = call(world, "user", "grant_app_permission", app_name="messaging", permission="camera")
    assert out.startswith(
        "Error. Permission 'camera' not tracked for app 'messaging', available permissions: "
        "['sms', 'storage', 'phone', 'network']\nStatus Bar:"
    )
    run(world, "user", "remove_app_permission", app_name="messaging", permission="SMS")
    out = call(world, "user", "grant_app_permission", app_name="messaging", permission="SMS")
    assert out.startswith("Success. Permission 'sms' granted to app 'messaging'.\nStatus Bar:")


def test_apn_and_wifi_texts(world):
    assert call(world, "user", "check_apn_settings") == (
        "Current APN Name: internet\nMMSC URL (for picture messages): "
        "http://mms.carrier.com/mms/wapenc\n"
        "(These are technical settings, usually best left unchanged.)"
    )
    assert call(world, "user", "check_wifi_status") == "Wi-Fi is turned OFF."
    assert (
        call(world, "user", "check_wifi_calling_status") == "Wi-Fi Calling is currently turned OFF."
    )
    assert call(world, "user", "check_data_restriction_status") == "Data Saver mode is OFF."
    out = call(world, "user", "set_apn_settings", apn_settings={"apn_name": "broken"})
    assert out.startswith("APN settings set to: broken\nStatus Bar: 📵 No Signal")


def test_payment_request__flow_through_the_sync_rule(official_world):
    w = official_world
    assert call(w, "user", "check_payment_request") == "No payment request has been made."
    assert call(w, "user", "make_payment") == "You do not have a payment request."
    run(
        w,
        "agent",
        "suspend_line_for_overdue_bill",
        customer_id="C1001",
        line_id="L1002",
        new_bill_id="B1234321",
        contract_ended=False,
    )
    out = call(w, "agent", "send_payment_request", customer_id="C1001", bill_id="B1234321")
    assert out == "Payment request sent to the customer for bill B1234321"
    assert (
        call(w, "user", "check_payment_request")
        == "You have a payment request for bill B1234321 of 65.0 USD."
    )
    again = w.call_tool(
        "agent", "send_payment_request", {"customer_id": "C1001", "bill_id": "B1002"}
    )
    assert again.content == "Error: A bill is already awaiting payment for this customer"
    assert call(w, "user", "make_payment") == "Payment of 65.0 USD has been made for bill B1234321."
    assert w.agent_db.bills["B1234321"].status == "Paid"
    assert w.user_db.surroundings.get().payment_request is None
    assert run(w, "agent", "assert_no_overdue_bill", overdue_bill_id="B1234321")
