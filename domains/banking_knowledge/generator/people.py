"""Invented customers of the built-in bank: names, contact details, birth dates, user ids."""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import date, timedelta

from tau_env.domains.banking_knowledge.constants import TODAY
from tau_env.domains.word_lists import word_lists

__all__ = ["WORDS", "People", "Person", "months_ago"]

WORDS = word_lists(__package__, "people.toml")
"""Names, streets, cities, e-mail domains and area codes (``people.toml``, next to this module)."""


@dataclass(frozen=True)
class Person:
    """One customer's record (the ``users`` table fields, in the reference's order)."""

    name: str
    user_id: str
    address: str
    email: str
    phone_number: str
    date_of_birth: str

    def record(self) -> dict[str, str]:
        """The ``users`` record (the fields in declaration order)."""
        return asdict(self)

    @property
    def first_name(self) -> str:
        """The given name."""
        return self.name.split()[0]


@dataclass
class People:
    """Draws customers with distinct names, user ids, emails and phone numbers."""

    rng: random.Random
    used: set[str] = field(default_factory=set)
    plain_names: int = 0
    """Customers given a plain first and last name so far; once all are taken, last names
    are double-barrelled (``Ortiz-Lund``), so a bank of any size has distinct names."""

    def draw(self, min_age: int = 24, max_age: int = 79) -> Person:
        """A new customer aged `min_age`..`max_age` on the bank's fixed 'today'."""
        rng = self.rng
        plain = len(WORDS.first_names) * len(WORDS.last_names)
        while True:
            first, last = rng.choice(WORDS.first_names), rng.choice(WORDS.last_names)
            if self.plain_names >= plain:  # every plain name taken (a large generated bank)
                other = rng.choice(WORDS.last_names)
                last = f"{last}-{other}" if other != last else last
            name = f"{first} {last}"
            if name not in self.used:
                break
        self.plain_names += "-" not in last
        self.used.add(name)
        user_id = self._fresh(lambda: "".join(rng.choices(_ID_ALPHABET, k=10)))
        city, state, zip_prefix = rng.choice(WORDS.cities)
        address = (
            f"{rng.randint(12, 9980)} {rng.choice(WORDS.streets)}, {city}, {state} "
            f"{zip_prefix}{rng.randint(10, 99)}"
        )
        email = self._fresh(
            lambda: (
                f"{first.lower()}.{last.lower()}{rng.randint(1, 99)}"
                f"@{rng.choice(WORDS.email_domains)}"
            )
        )
        phone = self._fresh(
            lambda: f"{rng.choice(WORDS.area_codes)}-555-{rng.randint(0, 9999):04d}"
        )
        oldest = TODAY.replace(year=TODAY.year - max_age - 1) + timedelta(days=1)
        youngest = TODAY.replace(year=TODAY.year - min_age)
        born = oldest + timedelta(days=rng.randint(0, (youngest - oldest).days))
        return Person(name, user_id, address, email, phone, born.strftime("%m/%d/%Y"))

    def _fresh(self, make: Callable[[], str]) -> str:
        while True:
            value = make()
            if value not in self.used:
                self.used.add(value)
                return value


_ID_ALPHABET = string.ascii_lowercase + string.digits


def months_ago(months: int, day: int = 15) -> date:
    """A date `months` calendar months before the bank's 'today', on `day`."""
    year, month = TODAY.year, TODAY.month - months
    while month <= 0:
        month += 12
        year -= 1
    return date(year, month, min(day, 28))
