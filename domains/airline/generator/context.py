"""What the task families work from: the generated world, its tools, and a random source.

Families ask the world's own tools for search results and trial calls, so the gold plans use
exactly what an agent would see.
"""

from __future__ import annotations

import bisect
import json
import random
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from tau_env.domains.airline import TOOLBOX
from tau_env.domains.airline.constants import CabinClass
from tau_env.domains.airline.data_model import (
    AirlineData,
    AirlineDB,
    CreditCard,
    GiftCard,
    PaymentMethod,
    Reservation,
    User,
)
from tau_env.state import World
from tau_env.state.database import SeedSource, Snapshot
from tau_env.state.journal import Journal

__all__ = ["Context", "NoCase", "describe_method"]

T = TypeVar("T")


class NoCase(Exception):
    """The world has no (more) case a family can draw a task from; the attempt is skipped."""


class Context:
    """The world a family draws tasks from.

    Args:
        data: The generated database.
        rng: The generator's random source (shared by all families, in a fixed order).
    """

    def __init__(self, data: AirlineData, rng: random.Random) -> None:
        self.data = data
        self.rng = rng
        self.snapshot = Snapshot.from_model(data)
        journal, source = Journal(), SeedSource(0)
        self.world = World(
            TOOLBOX, AirlineDB(self.snapshot, journal, source), None, journal, source
        )
        # Every active reservation with its owner, in the world's order (it never changes).
        self._active = [
            (data.users[r.user_id], r) for r in data.reservations.values() if r.status is None
        ]
        self._used: set[tuple[str, str]] = set()
        # `reservations` answers by predicate: (key, the predicate kept alive, the answer).
        self._answers: dict[Hashable, tuple[Callable[..., bool], list[Any]]] = {}
        # Subjects each family used, in order, and its fresh reservations per predicate.
        self._used_log: dict[str, list[str]] = {}
        self._fresh: dict[tuple[str, Hashable], _Fresh[Any]] = {}

    # -- tools ---------------------------------------------------------------------------------
    def call(self, name: str, **arguments: Any) -> Any:
        """Run a tool on a throwaway copy of the world; the parsed result, or None on error."""
        result = self.world.fork().call_tool("agent", name, arguments)
        if result.error:
            return None
        try:
            return json.loads(result.content)
        except ValueError:
            return result.content

    def cheapest_direct(
        self, origin: str, destination: str, date: str, cabin: CabinClass, passengers: int
    ) -> dict[str, Any] | None:
        """The one cheapest nonstop flight with room in `cabin`; None when absent or tied."""
        found = self.call("search_direct_flight", origin=origin, destination=destination, date=date)
        fitting = [f for f in found or [] if f["available_seats"][cabin] >= passengers]
        return _unique_min(fitting, lambda f: f["prices"][cabin])

    def cheapest_onestop(
        self, origin: str, destination: str, date: str, cabin: CabinClass, passengers: int
    ) -> list[dict[str, Any]] | None:
        """The one cheapest connection with room in `cabin` on both legs; None if absent or tied."""
        found = self.call(
            "search_onestop_flight", origin=origin, destination=destination, date=date
        )
        fitting = [
            pair
            for pair in found or []
            if all(leg["available_seats"][cabin] >= passengers for leg in pair)
        ]
        return _unique_min(fitting, lambda pair: sum(leg["prices"][cabin] for leg in pair))

    # -- records -------------------------------------------------------------------------------
    def user(self, user_id: str) -> User:
        """A user record."""
        return self.data.users[user_id]

    def reservations(
        self, accept: Callable[[User, Reservation], bool]
    ) -> list[tuple[User, Reservation]]:
        """Active reservations (not cancelled) whose owner and record pass `accept`.

        The world never changes while tasks are drawn, so the answer for a predicate is kept:
        a family asks again with the same code over the same values on every draw, and a scan
        of every reservation per draw made a set of N tasks cost O(N²) (the world grows with
        N). A predicate whose closure holds something without a stable key is not kept.
        """
        key = _predicate_key(accept)
        if key is not None and key in self._answers:
            return list(self._answers[key][1])
        found = [(user, r) for user, r in self._active if accept(user, r)]
        if key is not None:
            self._answers[key] = (accept, found)  # the predicate keeps its closure's ids alive
        return list(found)

    def reservation(
        self, family: str, accept: Callable[[User, Reservation], bool]
    ) -> tuple[User, Reservation]:
        """A random active reservation passing `accept`, and its owner, new to `family`.

        Raises:
            NoCase: No such reservation is left for the family.
        """
        key = _predicate_key(accept)
        if key is None:
            found = self.pick(family, self.reservations(accept), key=lambda p: p[1].reservation_id)
        else:
            found = self._pick_reservation(family, key, accept)
        if found is None:
            raise NoCase(family)
        return found

    def _pick_reservation(
        self, family: str, key: Hashable, accept: Callable[[User, Reservation], bool]
    ) -> tuple[User, Reservation] | None:
        """`pick` over `reservations(accept)`, keeping the fresh options between draws."""
        return self._pick_kept(
            family, key, lambda: self.reservations(accept), lambda o: o[1].reservation_id
        )

    def pick_user(self, family: str) -> User | None:
        """``pick(family, users, key=user_id)``, keeping the fresh users between draws."""
        return self._pick_kept(
            family, "users", lambda: list(self.data.users.values()), lambda u: u.user_id
        )

    def _pick_kept(
        self,
        family: str,
        key: Hashable,
        options: Callable[[], list[T]],
        subject: Callable[[T], str],
    ) -> T | None:
        """`pick` over `options()`, without building and scanning every option on each draw.

        The same choice as `pick` (the fresh options in the same order, the same random
        draw): the list of fresh options is kept per (family, `key`), and only the subjects
        the family used since are taken out of it, each found by its rank (not by a scan of
        the list). The world never changes while tasks are drawn; without this, a set of N
        tasks cost O(N²) (the world grows with N).
        """
        log = self._used_log.setdefault(family, [])
        entry = self._fresh.get((family, key))
        if entry is None:
            options_now = options()
            subjects = [subject(o) for o in options_now]
            rank = {name: i for i, name in enumerate(subjects)}
            fresh = [i for i, name in enumerate(subjects) if (family, name) not in self._used]
            entry = _Fresh(
                [options_now[i] for i in fresh], [rank[subjects[i]] for i in fresh], rank, len(log)
            )
            self._fresh[(family, key)] = entry
        for gone in log[entry.seen :]:  # used by the family through another list since
            entry.remove(gone)
        entry.seen = len(log)
        if not entry.options:
            return None
        chosen: T = entry.pop(self.rng.randrange(len(entry.options)))  # the draw `rng.choice` makes
        self._used.add((family, subject(chosen)))
        log.append(subject(chosen))
        entry.seen = len(log)
        return chosen

    def pick(self, family: str, options: Iterable[T], key: Callable[[T], str]) -> T | None:
        """A random option not yet used by `family` (each subject appears once per family)."""
        fresh = [option for option in options if (family, key(option)) not in self._used]
        if not fresh:
            return None
        chosen = self.rng.choice(fresh)
        self._used.add((family, key(chosen)))
        self._used_log.setdefault(family, []).append(key(chosen))
        return chosen

    def credit_card(self, user: User) -> CreditCard | None:
        """One of the user's credit cards, at random."""
        cards = [m for m in user.payment_methods.values() if isinstance(m, CreditCard)]
        return self.rng.choice(cards) if cards else None

    def gift_card(self, user: User, amount: int) -> GiftCard | None:
        """One of the user's gift cards holding at least `amount`, at random."""
        cards = [
            m
            for m in user.payment_methods.values()
            if isinstance(m, GiftCard) and m.amount >= amount
        ]
        return self.rng.choice(cards) if cards else None

    def card_for(self, user: User, amount: int) -> CreditCard | GiftCard | None:
        """A credit card, or sometimes a gift card that covers `amount`."""
        gift = self.gift_card(user, max(amount, 0)) if self.rng.random() < 0.35 else None
        return gift or self.credit_card(user)


@dataclass
class _Fresh(Generic[T]):
    """The options a family has not used yet of one list, in the list's order.

    Attributes:
        options: The unused options.
        ranks: Each one's position in the whole list (ascending, as `options`).
        rank_of: Every subject of the whole list -> its position.
        seen: How many subjects of the family's log were taken out.
    """

    options: list[T]
    ranks: list[int]
    rank_of: dict[str, int]
    seen: int

    def pop(self, index: int) -> T:
        """Take out and return the option at `index`."""
        del self.ranks[index]
        return self.options.pop(index)

    def remove(self, subject: str) -> None:
        """Take out the option of `subject`, if it is still here (found by its rank)."""
        rank = self.rank_of.get(subject)
        if rank is None:
            return
        index = bisect.bisect_left(self.ranks, rank)
        if index < len(self.ranks) and self.ranks[index] == rank:
            self.pop(index)


def describe_method(method: PaymentMethod) -> str:
    """How a user names a payment method: ``visa card ending 1234 (credit_card_123)``."""
    if isinstance(method, CreditCard):
        return f"{method.brand} card ending in {method.last_four} ({method.id})"
    kind = "gift card" if isinstance(method, GiftCard) else "travel certificate"
    return f"{kind} {method.id}"


def _unique_min(options: list[T], cost: Callable[[T], int]) -> T | None:
    if not options:
        return None
    best = min(cost(option) for option in options)
    winners = [option for option in options if cost(option) == best]
    return winners[0] if len(winners) == 1 else None


def _predicate_key(function: Callable[..., Any], depth: int = 0) -> Hashable | None:
    """What decides a predicate's answers: its code and its closure's values, or None.

    Functions in the closure are keyed the same way; other values by themselves when they
    are hashable and immutable (strings, numbers, tuples of them), else by identity (the
    world's records and tables, which live as long as the context).
    """
    if depth > 4:
        return None
    cells: list[Hashable] = []
    for cell in getattr(function, "__closure__", None) or ():
        value = cell.cell_contents
        if callable(value) and hasattr(value, "__code__"):
            inner = _predicate_key(value, depth + 1)
            if inner is None:
                return None
            cells.append(inner)
        elif isinstance(value, str | int | float | bool | type(None)):
            cells.append(value)
        else:
            cells.append(("id", id(value)))
    code = getattr(function, "__code__", None)
    return None if code is None else (code, tuple(cells))
