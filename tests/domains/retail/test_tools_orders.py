"""Retail write tools: effects, gift-card arithmetic, the reference's quirks, exact error texts,
and failures that leave the store untouched."""

import json

import pytest

from tests.domains.retail.conftest import call


def order(world, order_id):
    return world.agent_db.orders[order_id]


def balance(world, user_id, method_id):
    return world.agent_db.users[user_id].payment_methods[method_id].balance


# -- cancel_pending_order ------------------------------------------------------------------------
def test_cancel__refunds_every_payment_and_records_the_reason(world):
    result = call(world, "cancel_pending_order", order_id="#W0000001", reason="ordered by mistake")
    dumped = json.loads(result.content)
    assert dumped["status"] == "cancelled" and dumped["cancel_reason"] == "ordered by mistake"
    assert dumped["payment_history"][-1] == {
        "transaction_type": "refund",
        "amount": 50.0,
        "payment_method_id": "credit_card_1",
    }
    assert balance(world, "ada_abbott_1000", "gift_card_1") == 30.0  # card refunds take days


def test_cancel__credits_a_gift_card_at_once(world):
    call(world, "cancel_pending_order", order_id="#W0000002", reason="no longer needed")
    assert balance(world, "ada_abbott_1000", "gift_card_1") == 50.0


@pytest.mark.parametrize(
    ("order_id", "reason", "message"),
    [
        ("#W9999999", "no longer needed", "Error: Order not found"),
        ("#W0000004", "no longer needed", "Error: Non-pending order cannot be cancelled"),
        ("#W0000005", "no longer needed", "Error: Non-pending order cannot be cancelled"),
        ("#W0000001", "found it cheaper", "Error: Invalid reason"),
        ("#W0000008", "no longer needed", "Error: Payment method not found"),
    ],
)
def test_cancel__errors(world, order_id, reason, message):
    result = call(world, "cancel_pending_order", order_id=order_id, reason=reason)
    assert (result.content, result.error) == (message, True)


def test_cancel__a_failure_midway_undoes_the_gift_card_refund(world):
    # #W0000008 refunds 6.00 to gift_card_2 first, then meets a deleted payment method; the
    # reference keeps the half-done refund, tau_env changes nothing.
    call(world, "cancel_pending_order", order_id="#W0000008", reason="no longer needed")
    assert balance(world, "bruno_banerjee_2000", "gift_card_2") == 10.0
    assert world.agent_db.users.changed_keys() == [] == world.agent_db.orders.changed_keys()


# -- modify_pending_order_address / modify_user_address ------------------------------------------
ADDRESS = {
    "address1": "7 New Street",
    "address2": "Apt 2",
    "city": "Austin",
    "state": "TX",
    "country": "USA",
    "zip": "78701",
}


@pytest.mark.parametrize("order_id", ["#W0000001", "#W0000005"])
def test_modify_order_address__any_pending_status(world, order_id):
    result = call(world, "modify_pending_order_address", order_id=order_id, **ADDRESS)
    assert json.loads(result.content)["address"] == {
        key: ADDRESS[key] for key in ("address1", "address2", "city", "country", "state", "zip")
    }
    assert world.agent_db.users["ada_abbott_1000"].address.zip == "97201"  # profile untouched


@pytest.mark.parametrize(
    ("order_id", "message"),
    [
        ("#W0000003", "Error: Non-pending order cannot be modified"),
        ("#W1", "Error: Order not found"),
    ],
)
def test_modify_order_address__errors(world, order_id, message):
    assert (
        call(world, "modify_pending_order_address", order_id=order_id, **ADDRESS).content == message
    )


def test_modify_user_address(world):
    result = call(world, "modify_user_address", user_id="ada_abbott_1000", **ADDRESS)
    assert json.loads(result.content)["address"]["city"] == "Austin"
    assert order(world, "#W0000001").address.city == "Portland"  # orders keep their address
    missing = call(world, "modify_user_address", user_id="nobody", **ADDRESS)
    assert missing.content == "Error: User not found"


# -- modify_pending_order_items ------------------------------------------------------------------
def items(world, order_id):
    return [(i.item_id, i.price, i.options) for i in order(world, order_id).items]


def test_modify_items__charges_a_gift_card_and_rewrites_the_item(world):
    result = call(
        world,
        "modify_pending_order_items",
        order_id="#W0000001",
        item_ids=["2000000001"],
        new_item_ids=["2000000002"],
        payment_method_id="gift_card_1",
    )
    assert not result.error
    assert items(world, "#W0000001")[0] == ("2000000002", 45.5, {"color": "white"})
    assert order(world, "#W0000001").status == "pending (item modified)"
    last = order(world, "#W0000001").payment_history[-1]
    assert (last.transaction_type, last.amount, last.payment_method_id) == (
        "payment",
        5.5,
        "gift_card_1",
    )
    assert balance(world, "ada_abbott_1000", "gift_card_1") == 24.5


def test_modify_items__a_cheaper_item_is_refunded_to_the_gift_card_at_once(world):
    call(
        world,
        "modify_pending_order_items",
        order_id="#W0000009",
        item_ids=["2000000002"],
        new_item_ids=["2000000001"],
        payment_method_id="gift_card_1",
    )
    last = order(world, "#W0000009").payment_history[-1]
    assert (last.transaction_type, last.amount, last.payment_method_id) == (
        "refund",
        5.5,
        "gift_card_1",
    )
    assert balance(world, "ada_abbott_1000", "gift_card_1") == 35.5


def test_modify_items__only_once_per_order(world):
    arguments = {
        "order_id": "#W0000001",
        "item_ids": ["2000000011"],
        "new_item_ids": ["2000000012"],
        "payment_method_id": "credit_card_1",
    }
    assert not call(world, "modify_pending_order_items", **arguments).error
    again = call(world, "modify_pending_order_items", **{**arguments, "item_ids": ["2000000012"]})
    assert again.content == "Error: Non-pending order cannot be modified"


def test_modify_items__every_changed_item_takes_the_last_variants_price_and_options(world):
    """The reference's quirk (spec §15.6), kept so that hashes and scores match."""
    call(
        world,
        "modify_pending_order_items",
        order_id="#W0000001",
        item_ids=["2000000001", "2000000011"],
        new_item_ids=["2000000002", "2000000012"],
        payment_method_id="paypal_1",
    )
    assert items(world, "#W0000001") == [
        ("2000000002", 15.99, {"size": "large"}),  # a lamp priced and described as the mug
        ("2000000012", 15.99, {"size": "large"}),
    ]
    assert order(world, "#W0000001").payment_history[-1].amount == pytest.approx(5.5 + 5.99)


def test_modify_items__repeated_ids_change_successive_units(world):
    call(
        world,
        "modify_pending_order_items",
        order_id="#W0000002",
        item_ids=["2000000011", "2000000011"],
        new_item_ids=["2000000012", "2000000012"],
        payment_method_id="gift_card_1",
    )
    assert [i[0] for i in items(world, "#W0000002")] == ["2000000012", "2000000012"]
    assert balance(world, "ada_abbott_1000", "gift_card_1") == 18.02  # 30 - 11.98, in cents


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"order_id": "#W0000005"}, "Error: Non-pending order cannot be modified"),
        ({"item_ids": ["2000000012"]}, "Error: 2000000012 not found"),
        (
            {"order_id": "#W0000002", "item_ids": ["2000000011"] * 3, "new_item_ids": ["1"] * 3},
            "Error: 2000000011 not found",
        ),
        ({"new_item_ids": []}, "Error: The number of items to be exchanged should match"),
        (
            {"new_item_ids": ["2000000001"]},
            "Error: The new item id should be different from the old item id",
        ),
        ({"new_item_ids": ["2000000012"]}, "Error: Variant not found"),
        ({"new_item_ids": ["2000000003"]}, "Error: New item 2000000003 not found or available"),
        ({"payment_method_id": "paypal_3"}, "Error: Payment method not found"),
        (
            {"new_item_ids": ["2000000004"]},
            "Error: Insufficient gift card balance to pay for the new item",
        ),
    ],
)
def test_modify_items__errors(world, arguments, message):
    base = {
        "order_id": "#W0000001",
        "item_ids": ["2000000001"],
        "new_item_ids": ["2000000002"],
        "payment_method_id": "gift_card_1",
    }
    result = call(world, "modify_pending_order_items", **{**base, **arguments})
    assert (result.content, result.error) == (message, True)


# -- modify_pending_order_payment ----------------------------------------------------------------
def test_modify_payment__to_a_gift_card_charges_it(world):
    result = call(
        world, "modify_pending_order_payment", order_id="#W0000007", payment_method_id="gift_card_1"
    )
    history = json.loads(result.content)["payment_history"]
    assert history == [
        {"transaction_type": "payment", "amount": 25.5, "payment_method_id": "credit_card_1"},
        {"transaction_type": "payment", "amount": 25.5, "payment_method_id": "gift_card_1"},
        {"transaction_type": "refund", "amount": 25.5, "payment_method_id": "credit_card_1"},
    ]
    assert balance(world, "ada_abbott_1000", "gift_card_1") == 4.5


def test_modify_payment__from_a_gift_card_credits_it(world):
    call(world, "modify_pending_order_payment", order_id="#W0000002", payment_method_id="paypal_1")
    assert balance(world, "ada_abbott_1000", "gift_card_1") == 50.0


@pytest.mark.parametrize(
    ("order_id", "method", "message"),
    [
        ("#W0000003", "gift_card_1", "Error: Non-pending order cannot be modified"),
        ("#W0000001", "paypal_3", "Error: Payment method not found"),
        (
            "#W0000005",
            "gift_card_2",
            "Error: There should be exactly one payment for a pending order",
        ),
        (
            "#W0000001",
            "credit_card_1",
            "Error: The new payment method should be different from the current one",
        ),
        ("#W0000001", "gift_card_1", "Error: Insufficient gift card balance to pay for the order"),
    ],
)
def test_modify_payment__errors(world, order_id, method, message):
    result = call(
        world, "modify_pending_order_payment", order_id=order_id, payment_method_id=method
    )
    assert result.content == message


# -- exchange_delivered_order_items --------------------------------------------------------------
def test_exchange__records_the_request_without_moving_money(world):
    result = call(
        world,
        "exchange_delivered_order_items",
        order_id="#W0000003",
        item_ids=["2000000011", "2000000002"],
        new_item_ids=["2000000012", "2000000001"],
        payment_method_id="gift_card_1",
    )
    dumped = json.loads(result.content)
    assert dumped["status"] == "exchange requested"
    assert dumped["exchange_items"] == ["2000000002", "2000000011"]  # sorted
    assert dumped["exchange_new_items"] == ["2000000001", "2000000012"]
    assert dumped["exchange_payment_method_id"] == "gift_card_1"
    assert dumped["exchange_price_difference"] == round(5.99 - 5.5, 2)
    assert balance(world, "ada_abbott_1000", "gift_card_1") == 30.0


def test_exchange__the_same_item_is_not_blocked(world):
    result = call(
        world,
        "exchange_delivered_order_items",
        order_id="#W0000003",
        item_ids=["2000000011"],
        new_item_ids=["2000000011"],
        payment_method_id="paypal_1",
    )
    assert json.loads(result.content)["exchange_price_difference"] == 0.0


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"order_id": "#W0000001"}, "Error: Non-delivered order cannot be exchanged"),
        ({"item_ids": ["2000000011", "2000000011"]}, "Error: Number of 2000000011 not found."),
        (
            {"new_item_ids": ["2000000012", "2000000001"]},
            "Error: The number of items to be exchanged should match.",
        ),
        ({"new_item_ids": ["2000000001"]}, "Error: Variant not found"),
        ({"new_item_ids": ["9"]}, "Error: Variant not found"),
        (
            {"item_ids": ["2000000002"], "new_item_ids": ["2000000003"]},
            "Error: New item 2000000003 not found or available",
        ),
        (
            {"item_ids": ["2000000002"], "new_item_ids": ["2000000004"]},
            "Error: Insufficient gift card balance to pay for the price difference",
        ),
        ({"payment_method_id": "paypal_3"}, "Error: Payment method not found"),
    ],
)
def test_exchange__errors(world, arguments, message):
    base = {
        "order_id": "#W0000003",
        "item_ids": ["2000000011"],
        "new_item_ids": ["2000000012"],
        "payment_method_id": "gift_card_1",
    }
    assert call(world, "exchange_delivered_order_items", **{**base, **arguments}).content == message


# -- return_delivered_order_items ----------------------------------------------------------------
@pytest.mark.parametrize("method", ["paypal_1", "gift_card_1"])
def test_return__to_the_original_method_or_a_gift_card(world, method):
    result = call(
        world,
        "return_delivered_order_items",
        order_id="#W0000003",
        item_ids=["2000000011", "2000000002"],
        payment_method_id=method,
    )
    dumped = json.loads(result.content)
    assert dumped["status"] == "return requested"
    assert dumped["return_items"] == ["2000000002", "2000000011"]
    assert dumped["return_payment_method_id"] == method
    assert balance(world, "ada_abbott_1000", "gift_card_1") == 30.0  # refunded later


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"order_id": "#W0000004"}, "Error: Non-delivered order cannot be returned"),
        (
            {"payment_method_id": "credit_card_1"},
            "Error: Payment method should be the original payment method",
        ),
        ({"payment_method_id": "gift_card_2"}, "Error: Payment method not found"),
        ({"item_ids": ["2000000011", "2000000011"]}, "Error: Some item not found"),
        ({"item_ids": ["2000000001"]}, "Error: Some item not found"),
    ],
)
def test_return__errors(world, arguments, message):
    base = {"order_id": "#W0000003", "item_ids": ["2000000011"], "payment_method_id": "paypal_1"}
    assert call(world, "return_delivered_order_items", **{**base, **arguments}).content == message


# -- failures change nothing ---------------------------------------------------------------------
FAILING_CALLS = [
    ("cancel_pending_order", {"order_id": "#W0000004", "reason": "no longer needed"}),
    ("cancel_pending_order", {"order_id": "#W0000008", "reason": "no longer needed"}),
    (
        "modify_pending_order_items",
        {
            "order_id": "#W0000001",
            "item_ids": ["2000000001"],
            "new_item_ids": ["2000000004"],
            "payment_method_id": "gift_card_1",
        },
    ),
    ("modify_pending_order_payment", {"order_id": "#W0000001", "payment_method_id": "gift_card_1"}),
    ("modify_pending_order_address", {"order_id": "#W0000004", **ADDRESS}),
    ("modify_user_address", {"user_id": "nobody", **ADDRESS}),
    (
        "exchange_delivered_order_items",
        {
            "order_id": "#W0000003",
            "item_ids": ["2000000002"],
            "new_item_ids": ["2000000004"],
            "payment_method_id": "gift_card_1",
        },
    ),
    (
        "return_delivered_order_items",
        {"order_id": "#W0000003", "item_ids": ["x"], "payment_method_id": "paypal_1"},
    ),
    ("cancel_pending_order", {"order_id": "#W0000001"}),  # missing argument
    ("cancel_pending_order", {"order_id": "#W0000001", "reason": 3}),  # wrong type
]


@pytest.mark.parametrize(("name", "arguments"), FAILING_CALLS)
def test_failing_writes__leave_the_store_unchanged(world, name, arguments):
    before = world.agent_db.reference_hash()
    result = world.call_tool("agent", name, arguments)
    assert result.error
    assert world.agent_db.reference_hash() == before
    assert all(not table.changed_keys() for table in (world.agent_db.orders, world.agent_db.users))
