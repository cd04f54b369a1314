"""What every task kind draws from: the products, the database being written, new customers.

Each task gets customers of its own (written into the shared database before any task runs),
so tasks never interfere; `Context` also writes the ordinary history every account has
(salary, groceries, bills), in which the facts a task is about are set.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date

from tau_env.data_files import builtin_toml
from tau_env.domains.banking_knowledge.constants import TODAY
from tau_env.domains.banking_knowledge.generator.people import People, Person, months_ago
from tau_env.domains.banking_knowledge.generator.products import (
    BANK_NAME,
    Bank,
    CardOffer,
    CheckingProduct,
    SavingsProduct,
)
from tau_env.domains.banking_knowledge.generator.world import Ledger

__all__ = ["IDENTITY_FIELDS", "Context", "november"]

IDENTITY_FIELDS = ("date_of_birth", "email", "phone_number", "address")
"""The details a caller confirms; any two verify them."""

_LABELS = {
    "date_of_birth": "date of birth",
    "email": "email address",
    "phone_number": "phone number",
    "address": "home address",
}

_MERCHANTS: dict[str, list[str]] = builtin_toml(__package__, "merchants.toml")["merchants"]
"""Purchase category -> merchants (`merchants.toml`, next to this module)."""


def november(day: int) -> date:
    """A day of the current statement month (November 2025)."""
    return date(TODAY.year, TODAY.month, day)


@dataclass
class Context:
    """The shared state of task drawing.

    Attributes:
        rng: The random source (consumed in a fixed order).
        bank: The products.
        ledger: The database being written.
        people: Draws new customers.
        returning: Customers a kind left for a later kind to call again, by the later kind's
            key (several tasks about one customer, as in real call logs).
    """

    rng: random.Random
    bank: Bank
    ledger: Ledger
    people: People
    returning: dict[str, list[tuple[Person, str, str]]] = field(default_factory=dict)

    def remember(self, key: str, person: Person, *accounts: str) -> None:
        """Leave a customer and two of their accounts for the kind `key` to reuse."""
        first, second = accounts
        self.returning.setdefault(key, []).append((person, first, second))

    def recall(self, key: str, account_level: str) -> tuple[Person, str, str] | None:
        """A remembered customer whose second account is of `account_level` (then forgotten)."""
        waiting = self.returning.get(key, [])
        for number, (_, _, second) in enumerate(waiting):
            if self.ledger.tables["accounts"][second]["level"] == account_level:
                return waiting.pop(number)
        return None

    # -- customers ----------------------------------------------------------------------------
    def customer(self, min_age: int = 24, max_age: int = 79) -> Person:
        """A new customer, written to the database."""
        person = self.people.draw(min_age, max_age)
        self.ledger.add_user(person)
        return person

    def identity(self, person: Person, count: int = 2) -> tuple[str, dict[str, str]]:
        """What a caller knows to verify: their name and `count` identity details.

        Returns:
            The ``known_info`` sentences and the matching facts.
        """
        chosen = sorted(self.rng.sample(IDENTITY_FIELDS, count), key=IDENTITY_FIELDS.index)
        facts = {"name": person.name}
        parts = [f"your {_LABELS[key]} is {getattr(person, key)}" for key in chosen]
        for key in chosen:
            facts[key] = getattr(person, key)
        text = f"You are {person.name}, a {BANK_NAME} customer; " + "; ".join(parts) + "."
        return text, facts

    def merchant(self, category: str) -> str:
        """A merchant of a purchase category."""
        return self.rng.choice(_MERCHANTS[category])

    # -- accounts -----------------------------------------------------------------------------
    def deposit(
        self,
        person: Person,
        product: CheckingProduct | SavingsProduct,
        *,
        age_days: int | None = None,
        balance: float | None = None,
        history: bool = True,
    ) -> str:
        """A checking or savings account (class ``saving``) with ordinary activity; returns its id.

        Without a `balance`, a checking account holds $400-6,000 and a savings account between
        its product's minimum (at least $300) and four times that plus $2,000.
        """
        opened = _days_before(age_days if age_days is not None else self.rng.randint(200, 2400))
        checking = isinstance(product, CheckingProduct)
        if balance is None and isinstance(product, SavingsProduct):
            low = max(product.min_balance, 300)
            balance = self.amount(low, low * 4 + 2000)
        elif balance is None:
            balance = self.amount(400, 6000)
        account = self.ledger.add_account(person, product, opened=opened, balance=balance)
        if history:
            self.activity(account, checking=checking)
        return account

    def activity(self, account_id: str, *, checking: bool) -> None:
        """Ordinary history of October and early November (before any task's own records)."""
        rng = self.rng
        ledger = self.ledger
        if checking:
            for month in (10, 11):
                ledger.add_bank_transaction(
                    account_id,
                    date(2025, month, 1),
                    "PAYROLL DEPOSIT - NORTHSTAR LOGISTICS",
                    self.amount(1400, 3200),
                    "deposit",
                )
            for _ in range(rng.randint(2, 4)):
                category = rng.choice(("Groceries", "Dining", "Utilities", "Shopping"))
                when = date(2025, rng.choice((10, 11)), rng.randint(2, 12))
                ledger.add_bank_transaction(
                    account_id,
                    when,
                    f"DEBIT CARD PURCHASE - {self.merchant(category).upper()}",
                    -self.amount(12, 180),
                    "debit",
                )
        else:
            ledger.add_bank_transaction(
                account_id,
                date(2025, 10, 3),
                "TRANSFER FROM CHECKING",
                self.amount(100, 600),
                "transfer",
            )

    def card(
        self,
        person: Person,
        offer: CardOffer,
        *,
        age_months: int | None = None,
        balance: float | None = None,
        limit: int | None = None,
        purchases: int = 3,
        **extra: object,
    ) -> str:
        """A credit card account with a few purchases; returns its id."""
        months = age_months if age_months is not None else self.rng.randint(14, 60)
        opened = months_ago(months, self.rng.randint(1, 28))
        account = self.ledger.add_card_account(
            person,
            offer,
            opened=opened,
            balance=balance if balance is not None else self.amount(150, 1800),
            limit=limit if limit is not None else self.rng.choice(offer.starting_limits),
            points=self.rng.randint(300, 9000),
            **extra,
        )
        categories = [c for c in offer.rates if c != "default"] + ["Shopping", "Groceries"]
        for _ in range(purchases):
            category = self.rng.choice(categories)
            self.ledger.add_card_transaction(
                person,
                account,
                offer,
                merchant=self.merchant(category),
                amount=self.amount(8, 240),
                when=date(2025, self.rng.choice((9, 10)), self.rng.randint(1, 28)),
                category=category,
            )
        return account

    def debit_card(
        self,
        person: Person,
        account: str,
        product: CheckingProduct,
        *,
        status: str = "ACTIVE",
        reason: str = "new_account",
        issued_days_ago: int | None = None,
        extra: Mapping[str, object] | None = None,
    ) -> dict[str, object]:
        """A debit card of a checking account; returns its record."""
        days = issued_days_ago if issued_days_ago is not None else self.rng.randint(90, 900)
        return self.ledger.add_debit_card(
            person,
            account,
            product,
            status=status,
            issued=_days_before(days),
            issue_reason=reason,
            **(extra or {}),
        )

    def pin(self) -> str:
        """A PIN the bank's rules accept (four digits, not a run, not one digit repeated)."""
        while True:
            pin = f"{self.rng.randint(0, 9999):04d}"
            digits = [int(c) for c in pin]
            steps = {b - a for a, b in itertools.pairwise(digits)}
            if len(set(pin)) > 1 and steps not in ({1}, {-1}):
                return pin

    def amount(self, low: float, high: float) -> float:
        """Dollars and cents between `low` and `high`."""
        return round(self.rng.uniform(low, high), 2)


def _days_before(days: int) -> date:
    return date.fromordinal(TODAY.toordinal() - days)
