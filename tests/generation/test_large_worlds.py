"""What lets the generators grow their worlds with the set: distinct names past the plain ones,
options drawn as read, predicates' answers kept by what decides them."""

import random

from tau_env.domains.airline.generator.context import _predicate_key
from tau_env.domains.banking_knowledge.generator.people import WORDS, People
from tau_env.domains.retail.generator.store import lazy_permutation
from tau_env.domains.retail.generator.world import customer_names, generate_world


def test_bank_people__stay_distinct_past_every_plain_name():
    people = People(random.Random(3))
    plain = len(WORDS.first_names) * len(WORDS.last_names)
    names = [people.draw().name for _ in range(plain + 300)]
    assert len(set(names)) == len(names)
    assert sum("-" in name for name in names) == 300


def test_retail_store__larger_than_the_plain_names_has_distinct_customers():
    assert len(set(customer_names())) == len(customer_names()) == 36_000
    data = generate_world(random.Random(1), users=1_300)
    names = {(u.name.first_name, u.name.last_name) for u in data.users.values()}
    assert len(names) == 1_300


def test_lazy_permutation__is_a_permutation_drawn_as_read():
    items = list(range(2_000))
    rng = random.Random(0)
    first = next(iter(lazy_permutation(list(items), rng)))
    assert first in items
    assert sorted(lazy_permutation(list(items), random.Random(1))) == items
    orders = {tuple(lazy_permutation(list(range(4)), random.Random(s))) for s in range(200)}
    assert len(orders) == 24  # every order of four comes up


def test_predicate_key__same_code_and_values_same_key():
    def make(reason: str, limit: int):
        return lambda user, reservation: reason == "x" and limit > 0

    assert _predicate_key(make("x", 1)) == _predicate_key(make("x", 1))
    assert _predicate_key(make("x", 1)) != _predicate_key(make("y", 1))
    assert _predicate_key(make("x", 1)) != _predicate_key(make("x", 2))
