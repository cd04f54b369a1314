"""What task families work with: a read-only view of the built-in store and the task draft.

A family picks a customer and an order, follows the policy to a gold plan (authentication,
the reads an agent needs, then the change), and fills a `Draft`; `tasks.py` turns drafts into
verified tasks.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from tau_env.domains.retail.data_model import (
    CreditCard,
    GiftCard,
    Order,
    OrderItem,
    PaymentMethod,
    Product,
    RetailData,
    RetailDB,
    User,
    Variant,
)
from tau_env.domains.retail.generator.world import random_address
from tau_env.errors import DataError

__all__ = [
    "ADDRESS_ARGUMENTS",
    "LAZY_FROM",
    "AuthMode",
    "Draft",
    "GoldStep",
    "NewAddress",
    "Store",
    "address_text",
    "describe_item",
    "describe_method",
    "describe_options",
    "full_name",
    "lazy_permutation",
    "money",
]

ADDRESS_ARGUMENTS = ("address1", "address2", "city", "state", "country", "zip")
"""Address arguments of the address tools, in their order."""

AuthMode = Literal["email", "name_zip", "wrong_email"]
"""How the customer identifies: by email; by name and zip; a stale email, then name and zip."""


_AUTH_MODES: tuple[AuthMode, ...] = ("email", "name_zip", "wrong_email")


def money(amount: float) -> str:
    """Dollars as the agent should say them: two decimals, no thousands separator."""
    return f"{amount:.2f}"


@dataclass(frozen=True)
class GoldStep:
    """One tool call of the gold plan.

    Attributes:
        name: Agent tool name.
        arguments: Its arguments.
        fails: The call is expected to return an error (a stale email, a refused change...).
    """

    name: str
    arguments: dict[str, Any]
    fails: bool = False


@dataclass
class Draft:
    """Everything a task family decides; `tasks.build_task` writes the task from it.

    Attributes:
        family: The family name (also the task id prefix).
        purpose: One sentence for reviewers.
        user: The customer who calls.
        auth: How they identify.
        steps: The gold plan after authentication.
        communicate: Values the agent must say (matched as substrings of its messages).
        reason: Why the customer calls, in the second person (the user simulator's brief).
        behaviour: How the customer should behave during the call.
        ticket_request: What the customer wants, in the third person (for No-User mode).
        facts: Facts the customer can give when asked (added to the authentication facts and
            written into the scenario's known info).
        refusal: The right outcome is a refusal (grading only: the customer is told nothing).
        expects_transfer: The right outcome is a transfer to a human agent (grading only).
        outcome: Checks the world after the gold plan (the change the task is about).
    """

    family: str
    purpose: str
    user: User
    auth: AuthMode
    steps: list[GoldStep]
    communicate: list[str]
    reason: str
    behaviour: str
    ticket_request: str
    facts: dict[str, str] = field(default_factory=dict)
    refusal: bool = False
    expects_transfer: bool = False
    outcome: Callable[[RetailDB], bool] | None = None


@dataclass(frozen=True)
class NewAddress:
    """A new address a task asks for: of a customer or of a pending order.

    Attributes:
        owner: Whose address changes: ``user_id`` (the default address) or ``order_id``.
        key: The customer's or the order's id.
        fields: The address, field by field (``ADDRESS_ARGUMENTS``).
    """

    owner: Literal["user_id", "order_id"]
    key: str
    fields: dict[str, str]

    @property
    def step(self) -> GoldStep:
        """The gold call that writes the address."""
        tool = "modify_user_address" if self.owner == "user_id" else "modify_pending_order_address"
        return GoldStep(
            tool, {self.owner: self.key, **{k: self.fields[k] for k in ADDRESS_ARGUMENTS}}
        )

    @property
    def text(self) -> str:
        """The address on one line."""
        return address_text(self.fields)

    @property
    def facts(self) -> dict[str, str]:
        """The customer's facts about the address: each part, and the whole as one line."""
        facts = {f"new_{key}": self.fields[key] for key in ADDRESS_ARGUMENTS}
        facts["new_address"] = self.text
        return facts

    def written(self, db: RetailDB) -> bool:
        """Whether `db` holds the new address (a draft's outcome check)."""
        records = db.users if self.owner == "user_id" else db.orders
        return bool(records[self.key].address.model_dump() == self.fields)


T = TypeVar("T")

LAZY_FROM = 1000
"""Option lists of at least this many are put in random order as they are read."""


def lazy_permutation(items: Sequence[T], rng: random.Random) -> Iterator[T]:
    """`items` in uniformly random order, drawing only as many as are read (Fisher-Yates).

    `items` is left as it is: the entries the shuffle moves are kept aside (the same draws
    and order as shuffling a copy in place, without copying a long list on every read).
    """
    moved: dict[int, T] = {}
    for i in range(len(items)):
        j = rng.randrange(i, len(items))
        chosen = moved.get(j, items[j])
        moved[j] = moved.get(i, items[i])
        yield chosen


class _Left(Generic[T]):
    """Records not handed out yet, in the store's order, for one kind of request.

    The records handed out since the last read are taken out at the next read (each found
    by its rank, by bisection): a read costs what was handed out since, not a copy of every
    record left. An iteration over an earlier read must end before the next read.
    """

    def __init__(self, records: list[T], ids: list[str], handed_out: int) -> None:
        self.records = records
        self._ranks = list(range(len(records)))
        self._rank_of = {record_id: rank for rank, record_id in enumerate(ids)}
        self._seen = handed_out

    def read(self, handed_out: list[str]) -> list[T]:
        """The records left, once those in ``handed_out`` (a log) since the last read are out."""
        for record_id in handed_out[self._seen :]:
            rank = self._rank_of.get(record_id)
            index = bisect.bisect_left(self._ranks, rank) if rank is not None else -1
            if 0 <= index < len(self._ranks) and self._ranks[index] == rank:
                del self._ranks[index]
                del self.records[index]
        self._seen = len(handed_out)
        return self.records


class Store:
    """Read-only helpers over the generated data, plus the family's random source.

    Orders handed out by `take` (and customers by `serve`) are not handed out again, so tasks
    differ.
    """

    def __init__(self, data: RetailData, rng: random.Random) -> None:
        self.data = data
        self.rng = rng
        # Orders handed out (`take`) and customers served (`serve`), in order. Untaken orders
        # per status list, and unserved customers, are kept (`_Left`): a draw reads them
        # instead of scanning or copying the whole store (O(N²) for a large set).
        self._taken: list[str] = []
        self._served: list[str] = []
        self._untaken: dict[tuple[str, ...], _Left[Order]] = {}
        self._unserved = _Left(list(data.users.values()), list(data.users), 0)
        # Every customer's e-mail address, lowercased: `stale_email` must avoid them all.
        self._emails = {user.email.lower() for user in data.users.values()}

    # -- picking ---------------------------------------------------------------------------
    def orders(self, *statuses: str) -> Iterable[Order]:
        """Untaken orders with one of these statuses, in random order."""
        untaken = self._untaken.get(statuses)
        if untaken is None:  # kept from then on: each read drops what `take` handed out
            taken = set(self._taken)
            found = [
                o
                for o in self.data.orders.values()
                if o.status in statuses and o.order_id not in taken
            ]
            untaken = _Left(found, [o.order_id for o in found], len(self._taken))
            self._untaken[statuses] = untaken
        return self._random_order(untaken.read(self._taken))

    def _random_order(self, found: list[T]) -> Iterable[T]:
        """`found` in random order: shuffled, or for a large list drawn as it is read.

        A family reads a few options before one fits, so shuffling thousands of them on every
        draw made a large store's task set cost O(N²); from `LAZY_FROM` options on, each next
        one is drawn when it is read (`lazy_permutation`, as uniform). Smaller stores (the
        built-in one) are shuffled as they always were.
        """
        if len(found) < LAZY_FROM:
            shuffled = list(found)
            self.rng.shuffle(shuffled)
            return shuffled
        return lazy_permutation(found, self.rng)

    def take(self, order: Order) -> None:
        """Keep later tasks away from this order."""
        self._taken.append(order.order_id)

    def users(self) -> Iterable[User]:
        """Customers no earlier task was about, in random order."""
        return self._random_order(self._unserved.read(self._served))

    def serve(self, user: User) -> None:
        """Keep later user-level tasks away from this customer."""
        self._served.append(user.user_id)

    def auth_mode(self) -> AuthMode:
        """Email half the time, name and zip most of the rest, a stale email sometimes."""
        return self.rng.choices(_AUTH_MODES, (5, 4, 1))[0]

    # -- reading ---------------------------------------------------------------------------
    def stale_email(self, user: User) -> str:
        """A variant of the customer's e-mail address that no customer has (no longer on file).

        Raises:
            DataError: Every variant is taken.
        """
        local, _, domain = user.email.partition("@")
        for suffix in ("old", "home", "mail", "1", "2"):
            candidate = f"{local}{suffix}@{domain}"
            if candidate not in self._emails:
                return candidate
        raise DataError(f"no unused email variant for {user.user_id}")  # pragma: no cover

    def new_address(self, owner: Literal["user_id", "order_id"], key: str) -> NewAddress:
        """A random new address for the customer or order `key`."""
        return NewAddress(owner, key, random_address(self.rng).model_dump())

    def user(self, user_id: str) -> User:
        """The customer with this id."""
        return self.data.users[user_id]

    def product(self, product_id: str) -> Product:
        """The product with this id."""
        return self.data.products[product_id]

    def alternatives(self, item: OrderItem) -> list[Variant]:
        """Available variants of the item's product other than the item itself."""
        variants = self.product(item.product_id).variants.values()
        return [v for v in variants if v.available and v.item_id != item.item_id]

    def methods(self, user: User, *sources: str) -> list[PaymentMethod]:
        """The customer's payment methods of the given kinds (all kinds when none given)."""
        return [m for m in user.payment_methods.values() if not sources or m.source in sources]

    def distinct_items(self, order: Order) -> list[OrderItem]:
        """The order's items without repeats (first occurrence of each item id)."""
        seen: dict[str, OrderItem] = {}
        for item in order.items:
            seen.setdefault(item.item_id, item)
        return list(seen.values())

    def sample(self, items: Iterable[OrderItem], most: int) -> list[OrderItem]:
        """One to `most` items, in order-of-appearance."""
        pool = list(items)
        chosen = self.rng.sample(range(len(pool)), self.rng.randint(1, min(most, len(pool))))
        return [pool[index] for index in sorted(chosen)]


def describe_options(options: dict[str, str]) -> str:
    """``color: black, size: M``."""
    return ", ".join(f"{name}: {value}" for name, value in options.items())


def describe_item(item: OrderItem | Variant, name: str | None = None) -> str:
    """``Desk Lamp (color: black, bulb: LED)``."""
    label = name if name is not None else getattr(item, "name", "item")
    return f"{label} ({describe_options(item.options)})"


def describe_method(method: PaymentMethod, owner: str = "your") -> str:
    """How a payment method is named: 'your visa card ending in 1234', 'my gift card'.

    Args:
        method: The payment method.
        owner: ``"your"`` in the customer's brief, ``"my"`` in what the customer says.
    """
    if isinstance(method, CreditCard):
        return f"{owner} {method.brand} card ending in {method.last_four}"
    if isinstance(method, GiftCard):
        return f"{owner} gift card"
    return f"{owner} PayPal account"


def full_name(user: User) -> str:
    """``Ada Abbott``."""
    return f"{user.name.first_name} {user.name.last_name}"


def address_text(fields: dict[str, str]) -> str:
    """``12 Oak Street, Apt 4, Portland, OR 97201, USA``."""
    second = f", {fields['address2']}" if fields["address2"] else ""
    place = f"{fields['city']}, {fields['state']} {fields['zip']}, {fields['country']}"
    return f"{fields['address1']}{second}, {place}"
