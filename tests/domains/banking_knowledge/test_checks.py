"""The behaviours' shared checks: each answers with the reference's text when it fails."""

import pytest

from tau_env.domain import load_domain
from tau_env.domains.banking_knowledge.discoverable.base import Answer, behaviour
from tau_env.domains.banking_knowledge.discoverable.checks import (
    found,
    given,
    inserted,
    linked_account_open,
    number,
    one_of,
    transition,
)
from tau_env.domains.banking_knowledge.lookups import edit


def _answer(check, *arguments) -> str:
    with pytest.raises(Answer) as raised:
        check(*arguments)
    return raised.value.text


def test_given__refuses_an_empty_argument_and_passes_a_given_one():
    assert _answer(given, "", "Error: Missing required parameter: card_id.") == (
        "Error: Missing required parameter: card_id."
    )
    assert _answer(given, None, "missing") == "missing"
    given("card_1", "missing")  # no answer
    given(0.5, "missing")


def test_number__reads_what_float_reads_and_refuses_the_rest():
    assert number("12.5", "bad") == 12.5 and number(3, "bad") == 3.0
    assert _answer(number, "twelve", "Error: Invalid amount.") == "Error: Invalid amount."
    assert _answer(number, None, "Error: Invalid amount.") == "Error: Invalid amount."


def test_one_of__names_the_field_and_lists_the_choices_as_python_does():
    one_of("lost", "reason", ["lost", "stolen"])
    assert _answer(one_of, "found", "reason", ("lost", "stolen")) == (
        "Error: Invalid reason. Must be one of: ['lost', 'stolen']"
    )


def test_transition__already_there_or_in_the_wrong_status():
    transition("card_1", {"status": "ACTIVE"}, "ACTIVE", "FROZEN", "frozen")
    assert _answer(transition, "card_1", {"status": "FROZEN"}, "ACTIVE", "FROZEN", "frozen") == (
        "Error: Debit card 'card_1' is already frozen."
    )
    assert _answer(transition, "card_1", {"status": "CLOSED"}, "ACTIVE", "FROZEN", "frozen") == (
        "Error: Debit card 'card_1' cannot be frozen. Current status: CLOSED. "
        "Only ACTIVE cards can be frozen."
    )


def test_found_inserted_and_linked_account__on_the_bank():
    bank = load_domain("banking_knowledge")  # the built-in bank: no data folder needed
    db = bank.prepare(bank.tasks[0]).initial_world.fork().agent_db
    key, account = next(iter(db.accounts.items()))
    assert found(db.accounts, key, "Account") == account.root
    assert _answer(found, db.accounts, "acc_none", "Account") == (
        "Error: Account 'acc_none' not found."
    )
    assert _answer(inserted, db.accounts, key, {"status": "OPEN"}, "taken") == "taken"
    assert db.accounts[key] is account  # unchanged
    inserted(db.referrals, "ref_new", {"status": "NEW"}, "taken")
    assert db.referrals["ref_new"].root == {"status": "NEW"}
    card = {"account_id": key}
    edit(db.accounts, key)["status"] = "OPEN"
    linked_account_open(db, card, "activated")
    linked_account_open(db, {"account_id": "acc_none"}, "activated")  # unknown: no answer
    edit(db.accounts, key)["status"] = "CLOSED"
    assert _answer(linked_account_open, db, card, "unfrozen") == (
        f"Error: The linked checking account '{key}' is no longer open. Card cannot be unfrozen."
    )


def test_behaviour__returns_the_text_of_an_answer_raised_by_a_check():
    @behaviour("checked_example", "read")
    def checked(db, amount: str) -> str:
        return f"read {number(amount, 'Error: not a number')}"

    assert checked(None, amount="2") == "read 2.0"
    assert checked(None, amount="two") == "Error: not a number"
