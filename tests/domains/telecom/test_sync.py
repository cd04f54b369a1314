"""The sync rule between the company's database and the user's phone."""

import pytest

from tests.domains.telecom.conftest import call, run

LINE = {"customer_id": "C2001", "line_id": "L2001"}


def surroundings(world):
    return world.user_db.surroundings.get()


def test_sync__does_nothing_before_the_phone_has_an_owner(builtin):
    world = builtin.new_world(seed=0)
    call(world, "agent", "suspend_line", reason="x", **LINE)
    assert surroundings(world).line_active is True
    assert world.user_db.surroundings.table.changed_keys() == []


def test_sync__copies_line_status_without_a_network_search(world):
    call(world, "agent", "suspend_line", reason="lost phone", **LINE)
    assert surroundings(world).line_active is False
    # The phone has not searched yet: it still shows service.
    assert run(world, "user", "assert_service_status", expected_status="connected")
    run(world, "user", "simulate_network_search")
    assert run(world, "user", "assert_service_status", expected_status="no_service")


def test_sync__after_resume_line_service_waits_for_a_search(world):
    call(world, "agent", "suspend_line", reason="x", **LINE)
    run(world, "user", "simulate_network_search")
    call(world, "agent", "resume_line", **LINE)
    assert surroundings(world).line_active is True
    assert run(world, "user", "assert_service_status", expected_status="no_service")
    assert call(world, "user", "check_status_bar").startswith("Status Bar: 📵 No Signal")
    call(world, "user", "reboot_device")
    assert run(world, "user", "assert_service_status", expected_status="connected")


def test_sync__roaming_follows_the_line(world):
    assert surroundings(world).roaming_allowed is False
    call(world, "agent", "enable_roaming", **LINE)
    assert surroundings(world).roaming_allowed is True


@pytest.mark.parametrize(("used", "exceeded"), [(9.99, False), (10.0, True), (12.0, True)])
def test_sync__data_exceeded_when_usage_reaches_limit_plus_refuel(world, used, exceeded):
    run(world, "agent", "set_data_usage", data_used_gb=used, **LINE)
    assert surroundings(world).mobile_data_usage_exceeded is exceeded
    assert run(world, "user", "assert_mobile_data_usage_exceeded", expected_status=exceeded)


def test_sync__refuel_lifts_the_data_block(world):
    run(world, "agent", "set_data_usage", data_used_gb=10.1, **LINE)
    assert run(world, "user", "assert_mobile_data_status", expected_status=False)
    call(world, "agent", "refuel_data", gb_amount=2.0, **LINE)
    assert surroundings(world).mobile_data_usage_exceeded is False
    assert run(
        world, "user", "assert_internet_speed", expected_speed=200, expected_desc="excellent"
    )


def test_sync__an_existing_awaiting_bill_becomes_a_payment_request(builtin):
    world = builtin.new_world(seed=0)
    call(world, "agent", "send_payment_request", customer_id="C2001", bill_id="B2002")
    assert surroundings(world).payment_request is None  # no owner yet
    run(world, "user", "set_user_info", name="Maria Gonzalez", phone_number="555-210-3001")
    request = surroundings(world).payment_request
    assert (request.bill_id, request.amount_due, request.paid) == ("B2002", 60.0, False)


def test_sync__unknown_number_is_an_error(builtin):
    world = builtin.new_world(seed=0)
    with pytest.raises(Exception, match="Line with phone number 555-999-0000 not found"):
        run(world, "user", "set_user_info", name="Nobody", phone_number="555-999-0000")


def test_sync__a_sync_that_finds_nothing_copies_no_record(world):
    surroundings_before = world.user_db.surroundings.get()
    line_before = world.agent_db.lines["L2001"]
    call(world, "user", "check_status_bar")
    world.sync()
    assert world.user_db.surroundings.get() is surroundings_before
    assert world.agent_db.lines["L2001"] is line_before
