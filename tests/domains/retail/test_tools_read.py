"""Retail read and generic tools: exact results and exact error texts on the fixture store."""

import json

import pytest

from tau_env.domains.retail.data_model import Order
from tests.domains.retail.conftest import OPTIONAL_ORDER_FIELDS, STORE, call


@pytest.mark.parametrize(
    ("email", "user_id"),
    [
        ("Ada.Abbott@example.com", "ada_abbott_1000"),
        ("ADA.ABBOTT@EXAMPLE.COM", "ada_abbott_1000"),
        ("ada.abbott@example.org", "ada_abbott_3000"),
    ],
)
def test_find_user_id_by_email__ignores_case(world, email, user_id):
    assert call(world, "find_user_id_by_email", email=email).content == user_id


def test_find_user_id_by_email__unknown_email(world):
    result = call(world, "find_user_id_by_email", email="nobody@example.com")
    assert (result.content, result.error) == ("Error: User not found", True)


@pytest.mark.parametrize(
    ("first", "last", "zip_code", "expected"),
    [
        ("Ada", "Abbott", "97201", "ada_abbott_1000"),
        ("aDA", "ABBOTT", "97201", "ada_abbott_1000"),
        ("Ada", "Abbott", "12345", "ada_abbott_3000"),
        ("Ada", "Abbott", "97201 ", "Error: User not found"),  # the zip is matched exactly
        ("Ada", "Banerjee", "78701", "Error: User not found"),
    ],
)
def test_find_user_id_by_name_zip(world, first, last, zip_code, expected):
    result = call(world, "find_user_id_by_name_zip", first_name=first, last_name=last, zip=zip_code)
    assert result.content == expected


def test_get_user_details__dumps_the_record_in_file_order(world):
    result = call(world, "get_user_details", user_id="bruno_banerjee_2000")
    assert result.content == json.dumps(STORE["users"]["bruno_banerjee_2000"])
    assert call(world, "get_user_details", user_id="bruno").content == "Error: User not found"


def test_get_order_details__includes_the_unset_optional_fields_as_null(world):
    result = call(world, "get_order_details", order_id="#W0000004")
    optional = dict.fromkeys(
        [name for name in Order.model_fields if name not in STORE["orders"]["#W0000004"]]
    )
    assert list(optional) == list(OPTIONAL_ORDER_FIELDS)
    assert result.content == json.dumps({**STORE["orders"]["#W0000004"], **optional})
    missing = call(world, "get_order_details", order_id="W0000004")
    assert missing.content == "Error: Order not found"


def test_get_product_details(world):
    result = call(world, "get_product_details", product_id="1000000002")
    assert result.content == json.dumps(STORE["products"]["1000000002"])
    error = call(world, "get_product_details", product_id="2000000011")  # an item id
    assert error.content == "Error: Product not found"


def test_get_item_details__searches_every_product(world):
    result = call(world, "get_item_details", item_id="2000000012")
    assert json.loads(result.content) == {
        "item_id": "2000000012",
        "options": {"size": "large"},
        "available": True,
        "price": 15.99,
    }
    assert call(world, "get_item_details", item_id="1000000001").content == "Error: Item not found"


def test_list_all_product_types__is_json_text_sorted_by_name(world):
    result = call(world, "list_all_product_types")
    assert result.content == '{"Desk Lamp": "1000000001", "Travel Mug": "1000000002"}'


def test_transfer_to_human_agents(world):
    result = call(world, "transfer_to_human_agents", summary="wants a price match")
    assert (result.content, result.error) == ("Transfer successful", False)


# calculate's results and error texts against the reference's eval: tests/tools/test_calculator.py
# (one calculator, shared with airline).


@pytest.mark.parametrize("expression", ["2 + x", "__import__('os')", "3 % 2", "1e5"])
def test_calculate__rejects_other_characters(world, expression):
    result = call(world, "calculate", expression=expression)
    assert result.content == "Error: Invalid characters in expression"


def test_calculate__refuses_huge_powers_instead_of_hanging(world):
    result = call(world, "calculate", expression="9 ** 9 ** 9")
    # The shared calculator's guard (tau_env.tools.calculator), the same as airline's.
    assert result.error and "int too large to convert to float" in result.content
