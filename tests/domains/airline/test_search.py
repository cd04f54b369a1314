"""Flight search: filters, the reference's quirks, and an index that sees episode changes."""

from tests.domains.airline.conftest import parsed


def test_search_direct_flight__exact_output_with_a_null_date(call):
    content, error = call(
        "search_direct_flight", origin="LAX", destination="JFK", date="2024-05-16"
    )
    assert not error
    assert content == (
        '[{"flight_number": "HAT002", "origin": "LAX", "destination": "JFK", "status": '
        '"available", "scheduled_departure_time_est": "12:00:00", '
        '"scheduled_arrival_time_est": "20:00:00", "date": null, "available_seats": '
        '{"basic_economy": 4, "economy": 4, "business": 4}, "prices": {"basic_economy": 60, '
        '"economy": 120, "business": 350}}]'
    )


def test_search_direct_flight__only_available_dates(call):
    numbers = lambda date: [  # noqa: E731
        f["flight_number"]
        for f in parsed(call("search_direct_flight", origin="JFK", destination="LAX", date=date)[0])
    ]
    assert numbers("2024-05-16") == ["HAT001"]
    assert numbers("2024-05-15") == []  # delayed
    assert numbers("2024-05-17") == []  # cancelled
    assert numbers("2024-06-01") == []  # not operated


def test_search_onestop_flight__connection_leaves_after_arrival(call):
    pairs = parsed(
        call("search_onestop_flight", origin="JFK", destination="LAX", date="2024-05-16")[0]
    )
    legs = [[leg["flight_number"], leg["date"]] for pair in pairs for leg in pair]
    # HAT003 lands 08:00: HAT004 (09:00) connects, HAT005 (07:00) does not. HAT006 lands at
    # 01:00 the next day: HAT007 (02:00) on 2024-05-17 connects.
    assert legs == [
        ["HAT003", "2024-05-16"],
        ["HAT004", "2024-05-16"],
        ["HAT006", "2024-05-16"],
        ["HAT007", "2024-05-17"],
    ]


def test_search_onestop_flight__next_day_date_is_not_zero_padded(call):
    # HAT006 on 2024-05-08 lands the next day; the reference looks for "2024-05-9", which no
    # flight has, so HAT007 on 2024-05-09 is not offered.
    assert call("search_onestop_flight", origin="JFK", destination="LAX", date="2024-05-08") == (
        "[]",
        False,
    )


def test_search__sees_seats_taken_in_the_episode(call):
    call(
        "book_reservation",
        user_id="alice_smith_1000",
        origin="LAX",
        destination="JFK",
        flight_type="one_way",
        cabin="economy",
        flights=[{"flight_number": "HAT002", "date": "2024-05-16"}],
        passengers=[{"first_name": "A", "last_name": "B", "dob": "2000-01-01"}],
        payment_methods=[{"payment_id": "credit_card_1", "amount": 120}],
        total_baggages=0,
        nonfree_baggages=0,
        insurance="no",
    )
    found = parsed(
        call("search_direct_flight", origin="LAX", destination="JFK", date="2024-05-16")[0]
    )
    assert found[0]["available_seats"]["economy"] == 3


def test_search__index_merges_flights_changed_or_added_in_the_episode(world):
    db = world.agent_db
    from tau_env.domains.airline.data_model import Flight

    moved = db.flights.edit("HAT005")
    moved.origin = "JFK"
    moved.destination = "BOS"
    added = Flight.model_validate(
        {**db.flights["HAT003"].model_dump(), "flight_number": "HAT900", "destination": "BOS"}
    )
    db.flights.insert("HAT900", added)
    world.journal.commit()
    found = world.call_tool(
        "agent",
        "search_direct_flight",
        {"origin": "JFK", "destination": "BOS", "date": "2024-05-16"},
    )
    assert [f["flight_number"] for f in parsed(found.content)] == ["HAT005", "HAT900"]
    from_ord = world.call_tool(
        "agent",
        "search_direct_flight",
        {"origin": "ORD", "destination": "LAX", "date": "2024-05-16"},
    )
    assert [f["flight_number"] for f in parsed(from_ord.content)] == ["HAT004"]
