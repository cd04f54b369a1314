"""Flight search: which flights can be booked from an airport on a date.

The reference scans every flight for each search (and once more per first leg of a one-stop
search). Here a search looks only at the flights of the right route (or, for a first leg, the
flights leaving the right airport), found through an index of the flight table's shared base
(`Table.items_where`); flights that the episode changed or added are merged in from the
episode's table, so results are exactly those of a full scan, in the same order.
"""

from __future__ import annotations

from tau_env.domains.airline.constants import ONESTOP_NEXT_DAY_PREFIX
from tau_env.domains.airline.data_model import DirectFlight, Flight, StatusAvailable
from tau_env.messages import trusted
from tau_env.state import Table

__all__ = ["direct_flights", "onestop_flights"]

_DIRECT_FIELDS = frozenset(DirectFlight.model_fields)  # every field is given


def _departing(flights: Table[Flight], origin: str, destination: str | None) -> list[Flight]:
    """Flights whose current origin is `origin` (and destination `destination`), in table order."""
    if destination is None:
        found = flights.items_where(flights.index("origin", _origin), origin)
    else:
        found = flights.items_where(flights.index("route", _route), (origin, destination))
    return [flight for _, flight in found]


def _origin(flight: Flight) -> str:
    return flight.origin


def _route(flight: Flight) -> tuple[str, str]:
    return flight.origin, flight.destination


def direct_flights(
    flights: Table[Flight],
    origin: str,
    date: str,
    destination: str | None = None,
    leave_after: str | None = None,
) -> list[DirectFlight]:
    """Bookable flights from `origin` on `date`, as the reference's search filters them.

    `leave_after` compares the scheduled departure as a string (``"06:00:00" >= "05:30:00+1"``
    is decided character by character), as the reference does.
    """
    found = []
    for flight in _departing(flights, origin, destination):
        if leave_after is not None and flight.scheduled_departure_time_est < leave_after:
            continue
        status = flight.dates.get(date)
        if not isinstance(status, StatusAvailable):
            continue
        # Built without validation from validated data (as the validating constructor would
        # build it); the seat and price maps are shared with the base record, which is safe
        # because search results are only serialized.
        fields = {
            "flight_number": flight.flight_number,
            "origin": flight.origin,
            "destination": flight.destination,
            "status": "available",
            "scheduled_departure_time_est": flight.scheduled_departure_time_est,
            "scheduled_arrival_time_est": flight.scheduled_arrival_time_est,
            "date": None,
            "available_seats": status.available_seats,
            "prices": status.prices,
        }
        found.append(trusted(DirectFlight, fields, _DIRECT_FIELDS))
    return found


def onestop_flights(
    flights: Table[Flight], origin: str, destination: str, date: str
) -> list[list[DirectFlight]]:
    """Pairs [first leg, connection] from `origin` to `destination`, as the reference builds them.

    The connection leaves the first leg's arrival airport no earlier (as strings) than the
    first leg's scheduled arrival. When the first leg arrives the next day (``+1``), the
    connection is searched on ``"2024-05-" + str(day + 1)``: unpadded and always in May, the
    reference's quirk, so such connections are found only from the 9th to the 30th.
    """
    pairs = []
    for first in direct_flights(flights, origin, date):
        first.date = date
        arrival = first.scheduled_arrival_time_est
        second_date = f"{ONESTOP_NEXT_DAY_PREFIX}{int(date[-2:]) + 1}" if "+1" in arrival else date
        for second in direct_flights(
            flights, first.destination, second_date, destination, leave_after=arrival
        ):
            second.date = second_date
            pairs.append([first, second])
    return pairs
