"""The retail belief's reading of the customer's words: items, and facts sentence by sentence."""

import pytest

from tau_env.wrappers.rl.retail_belief import RetailBelief, parse_items


@pytest.mark.parametrize(
    ("text", "names"),
    [
        (
            "the 1L steel Electric Kettle without temperature control",
            ["Electric Kettle"],
        ),
        ("the 5000mAh black Portable Charger with 3 ports", ["Portable Charger"]),
        (
            "the white Desk Lamp with LED bulb for a brass one with halogen bulb and the XL "
            "Noise-Cancelling Headphones",
            ["Desk Lamp", "Noise-Cancelling Headphones"],
        ),
    ],
)
def test_items__the_product_name_never_comes_from_an_option(text, names):
    """Options hold capitals too ("1L", "5000mAh", "LED", "XL"): they are no product name."""
    assert [name for name, _, _ in parse_items(text)] == names


def test_facts__end_with_their_sentence():
    """A fact runs to the end of its sentence, not into the next one."""
    belief = RetailBelief()
    belief.read_user_text("Hello. I want to cancel an order.")
    belief.read_user_text(
        "Okay. My order hint is the order with the Backpack. Sorry, I don't know my order id."
    )
    assert belief.facts["order_hint"] == "the order with the Backpack"
    assert "order_id" in belief.unknown
