"""The sync rule between the company's database and the user's phone."""

import dataclasses

import pytest

from tau_env.messages import side_of
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


def _counting(world):
    """Make `world` count its sync runs (returns the counter list)."""
    runs = []
    rule = world.toolbox.sync

    def counted(target):
        runs.append(1)
        rule(target)

    world.toolbox = dataclasses.replace(world.toolbox, sync=counted)
    return runs


def test_sync__skipped_when_no_table_it_reads_changed(world):
    runs = _counting(world)
    call(world, "agent", "get_customer_by_id", customer_id="C2001")  # a read
    call(world, "user", "toggle_airplane_mode")  # the phone: not read by the rule
    call(world, "user", "check_status_bar")
    assert runs == []
    call(world, "agent", "suspend_line", reason="lost phone", **LINE)  # a line: read
    assert len(runs) == 1 and surroundings(world).line_active is False
    world.fork().call_tool("agent", "get_customer_by_id", {"customer_id": "C2001"})
    assert len(runs) == 1  # a fork knows its tables are in sync


def test_sync__runs_on_the_first_call_of_a_world_never_synced(builtin):
    world = builtin.new_world(seed=0)
    runs = _counting(world)
    call(world, "agent", "get_customer_by_id", customer_id="C2001")
    call(world, "agent", "get_customer_by_id", customer_id="C2001")
    assert len(runs) == 1


def test_sync__runs_after_a_change_made_outside_a_call(world):
    runs = _counting(world)
    lines = world.agent_db.lines
    lines.insert("L2001", lines["L2001"].model_copy(update={"status": "Suspended"}))
    world.journal.commit()
    call(world, "user", "check_status_bar")
    assert len(runs) == 1 and surroundings(world).line_active is False


def test_sync__after_a_failed_call_nothing_is_skipped_wrongly(world):
    runs = _counting(world)
    result = world.call_tool("agent", "suspend_line", {"customer_id": "C2001", "line_id": "L9"})
    assert result.error
    call(world, "agent", "suspend_line", reason="x", **LINE)
    assert surroundings(world).line_active is False and len(runs) == 1


def _gold_calls(domain):
    for task in domain.tasks:
        calls = [(side_of(a.requestor), a.name, dict(a.arguments)) for a in task.gold_actions]
        if calls:
            yield task, calls


@pytest.mark.parametrize("source", ["builtin", "official"])
def test_sync__skipping_it_gives_what_syncing_after_every_call_gives(source, request):
    """Every gold replay, call by call: same results, same worlds as the always-sync rule."""
    domain = request.getfixturevalue(source)
    replays = 0
    for task, calls in _gold_calls(domain):
        initial = domain.prepare(task).initial_world
        skipping, always = initial.fork(seed=1), initial.fork(seed=1)
        always.toolbox = dataclasses.replace(always.toolbox, sync_inputs=None)
        for side, name, arguments in calls:
            got = skipping.call_tool(side, name, arguments)
            want = always.call_tool(side, name, arguments)
            if not want.error:
                always.sync()  # the rule before: after every successful call
            assert got == want, (task.id, name)
            assert skipping.differences(always) == [], (task.id, name)
        replays += 1
    assert replays > 10
