"""Item details in a customer's words: literals and attribute lists said as a person would."""

import pytest

from tau_env.wrappers.users.attributes import speak_attributes, spoken_item


@pytest.mark.parametrize(
    ("written", "said"),
    [
        (
            "exchange T-Shirt {'color': 'blue', 'size': 'S', 'material': 'polyester', "
            "'style': 'v-neck'} to {'color': 'red', 'size': 'XXL'}",
            "exchange the blue polyester v-neck T-Shirt in size S to a red one in size XXL",
        ),
        (
            "exchange Wireless Earbuds {'color': 'blue', 'water resistance': 'IPX4'} to one "
            "with the following attributes: {'color': 'black', 'water resistance': 'no'}",
            "exchange the blue Wireless Earbuds with IPX4 water resistance to a black one "
            "without water resistance",
        ),
        (
            "swap my Desk Lamp (color: white, bulb: LED) for the one with color: brass, "
            "bulb: halogen, and the Kettle (capacity: 1L, temperature control: yes)",
            "swap my white Desk Lamp with LED bulb for the brass one with halogen bulb, and "
            "the 1L Kettle with temperature control",
        ),
        (
            "a less bright one (prefer battery > USB > AC)",
            "a less bright one (prefer battery, then USB, then AC)",
        ),
        ("Nothing to say: it is fine.", "Nothing to say: it is fine."),
    ],
)
def test_speak_attributes__literals_and_lists_in_words(written, said):
    assert speak_attributes(written) == said


def test_spoken_item__colour_first_size_after_the_rest_with_and_without():
    attributes = [("size", "M"), ("color", "red"), ("gps", "no"), ("band", "metal")]
    assert (
        spoken_item("Watch", attributes, "a")
        == "a red Watch in size M with metal band and without gps"
    )
    assert spoken_item("one", [("color", "orange")], "a") == "an orange one"
