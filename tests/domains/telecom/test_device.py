"""The phone's simulation rules, pinned with examples."""

import pytest

from tests.domains.telecom.conftest import call, run


def speed(world):
    return call(world, "user", "run_speed_test")


def test_speed_test__default_5g_excellent_is_275_mbps_excellent(world):
    assert speed(world) == "Speed Test Result: 275.00 Mbps (Excellent). Connection is very fast."
    assert run(
        world, "user", "assert_internet_speed", expected_speed=275.0, expected_desc="EXCELLENT"
    )
    assert not run(world, "user", "assert_internet_speed", expected_speed=275.01)


def test_speed_test__official_phone_reaches_275_after_a_network_search(official_world):
    # The official phone starts at 5G "good" (220 Mbps); a search takes the area's 5G excellent.
    assert "220.00 Mbps (Excellent)" in speed(official_world)
    run(official_world, "user", "simulate_network_search")
    assert "275.00 Mbps (Excellent)" in speed(official_world)


def test_speed_test__poor_vpn_divides_by_ten(world):
    run(world, "user", "break_vpn")
    assert speed(world).startswith("Speed Test Result: 27.50 Mbps (Good).")
    assert run(world, "user", "assert_internet_not_excellent")
    call(world, "user", "disconnect_vpn")
    assert "275.00 Mbps" in speed(world)


def test_speed_test__data_saver_multiplies_by_one_fifth(world):
    run(world, "user", "turn_data_saver_mode_on")
    assert speed(world).startswith("Speed Test Result: 55.00 Mbps (Good).")
    run(world, "user", "break_vpn")  # both: 275 x 0.1 x 0.2
    assert speed(world).startswith("Speed Test Result: 5.50 Mbps (Fair).")


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("4g_only", "44.00 Mbps (Good)"),
        ("3g_only", "1.50 Mbps (Poor)"),
        ("2g_only", "0.05 Mbps (Very Poor)"),
        ("4g_5g_preferred", "275.00 Mbps (Excellent)"),
    ],
)
def test_speed_test__follows_the_network_mode(world, mode, expected):
    call(world, "user", "set_network_mode_preference", mode=mode)
    assert expected in speed(world)


def test_airplane_mode_on__no_service_and_no_data(world):
    out = call(world, "user", "toggle_airplane_mode")
    assert out == "Airplane Mode is now ON.\nStatus Bar: ✈️ Airplane Mode | 🔋 72%"
    assert run(world, "user", "assert_service_status", expected_status="no_service")
    assert run(world, "user", "assert_mobile_data_status", expected_status=False)
    assert speed(world) == "Speed test failed: No Connection."
    call(world, "user", "toggle_airplane_mode")
    assert run(world, "user", "assert_service_status", expected_status="connected")


def test_airplane_mode_on__disconnects_the_vpn(world):
    call(world, "user", "connect_vpn")
    call(world, "user", "toggle_airplane_mode")
    assert call(world, "user", "check_vpn_status") == "VPN is turned OFF."


def test_broken_apn__survives_reset_until_reboot(world):
    run(world, "user", "break_apn_settings")
    assert run(world, "user", "assert_service_status", expected_status="no_service")
    out = call(world, "user", "reset_apn_settings")
    assert out.startswith("APN settings will reset at reboot.\nStatus Bar: 📵 No Signal")
    assert run(world, "user", "assert_service_status", expected_status="no_service")
    out = call(world, "user", "reboot_device")
    assert out.startswith(
        "Resetting APN settings...\nRestarting network services...\nStatus Bar: 📶⁴"
    )
    assert run(world, "user", "assert_service_status", expected_status="connected")


def test_reboot__without_pending_reset_keeps_apn_settings(world):
    run(world, "user", "break_apn_mms_setting")
    out = call(world, "user", "reboot_device")
    assert out.startswith("Restarting network services...\nStatus Bar:")
    assert "MMSC URL (for picture messages): Not Set" in call(world, "user", "check_apn_settings")


def test_sim__missing_until_reseated_and_locked_for_good(world):
    run(world, "user", "unseat_sim_card")
    assert call(world, "user", "check_sim_status") == "No SIM card detected in the phone."
    assert run(world, "user", "assert_service_status", expected_status="no_service")
    call(world, "user", "reseat_sim_card")
    assert run(world, "user", "assert_service_status", expected_status="connected")
    run(world, "user", "lock_sim_card", mode="pin")
    call(world, "user", "reseat_sim_card")
    call(world, "user", "reboot_device")
    assert call(world, "user", "check_sim_status") == "The SIM card is locked with a PIN code."
    assert run(world, "user", "assert_service_status", expected_status="no_service")


def test_mms__works_by_default(world):
    assert call(world, "user", "can_send_mms") == "Your messaging app can send MMS messages."


@pytest.mark.parametrize(
    ("break_name", "arguments"),
    [
        ("set_network_mode_preference", {"mode": "2g_only"}),  # 2G cannot carry MMS
        ("set_wifi_calling", {"enabled": True, "mms_over_wifi": True}),
        ("break_apn_mms_setting", {}),
        ("remove_app_permission", {"app_name": "messaging", "permission": "sms"}),
        ("remove_app_permission", {"app_name": "messaging", "permission": "storage"}),
        ("turn_data_off", {}),
        ("turn_airplane_mode_on", {}),
    ],
)
def test_mms__each_condition_is_needed(world, break_name, arguments):
    world.run_env_function("user", break_name, arguments)
    assert call(world, "user", "can_send_mms") == "Your messaging app cannot send MMS messages."
    assert run(world, "user", "assert_can_send_mms", expected_status=False)


def test_mms__3g_and_wifi_calling_without_mms_over_wifi_are_fine(world):
    call(world, "user", "set_network_mode_preference", mode="3g_only")
    run(world, "user", "set_wifi_calling", enabled=True, mms_over_wifi=False)
    remove = {"app_name": "messaging", "permission": "phone"}
    world.run_env_function("user", "remove_app_permission", remove)
    assert run(world, "user", "assert_can_send_mms", expected_status=True)


def test_roaming__abroad_needs_phone_and_line(world):
    run(world, "user", "set_user_location", abroad=True)
    assert run(world, "user", "assert_mobile_data_status", expected_status=False)
    call(world, "user", "toggle_roaming")  # the phone allows it; the line (L2001) does not
    assert run(world, "user", "assert_mobile_data_status", expected_status=False)
    call(world, "agent", "enable_roaming", customer_id="C2001", line_id="L2001")
    assert run(world, "user", "assert_mobile_data_status", expected_status=True)


def test_status_bar__tokens(world):
    assert call(world, "user", "check_status_bar") == (
        "Status Bar: 📶⁴ Excellent | 5G | 📱 Data Enabled | 🔋 72%"
    )
    run(world, "user", "turn_data_saver_mode_on")
    call(world, "user", "connect_vpn")
    call(world, "user", "toggle_wifi")
    icons = "📶⁴ Excellent | 5G | 📱 Data Enabled | 🔽 Data Saver | 🔒 VPN Connected | 🔋 72%"
    assert call(world, "user", "check_status_bar") == f"Status Bar: {icons}"
    run(world, "user", "turn_data_off")
    assert "| 5G | 📵 Data Disabled |" in call(world, "user", "check_status_bar")
    run(world, "user", "unseat_sim_card")
    assert call(world, "user", "check_status_bar").startswith("Status Bar: 📵 No Signal | 📵 Data")


def test_toggles_without_network_search__data_saver_and_wifi_calling(world):
    run(world, "user", "turn_airplane_mode_on")
    run(world, "user", "turn_airplane_mode_off")
    phone = world.user_db.device.get()
    assert phone.network_connection_status == "connected"
    before = phone.model_dump()
    call(world, "user", "toggle_wifi_calling")
    call(world, "user", "toggle_data_saver_mode")
    after = world.user_db.device.get().model_dump()
    changed = {key for key in before if before[key] != after[key]}
    assert changed == {"wifi_calling_enabled", "data_saver_mode"}


def test_toggle_wifi__refused_in_airplane_mode(world):
    run(world, "user", "turn_airplane_mode_on")
    out = call(world, "user", "toggle_wifi")
    assert out.startswith("Cannot change Wi-Fi settings while Airplane Mode is ON.\nStatus Bar:")
    assert world.user_db.device.get().wifi_enabled is False
