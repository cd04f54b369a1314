from tau_env.tools.docstring import parse_docstring


def test_parse_docstring__summary_long_description_and_args():
    doc = parse_docstring(
        """Book a flight.

        Prices are in dollars.
        Seats are not held.

        Args:
            user_id: Who books.
            flights (list): The legs, each with a number
                and a date.

        Returns:
            The reservation.
        """
    )
    assert doc.summary == "Book a flight."
    assert doc.long_description == "Prices are in dollars.\nSeats are not held."
    assert doc.description == "Book a flight.\n\nPrices are in dollars.\nSeats are not held."
    assert doc.args == {
        "user_id": "Who books.",
        "flights": "The legs, each with a number and a date.",
    }


def test_parse_docstring__summary_only_has_no_blank_line():
    doc = parse_docstring("List users.")
    assert doc.description == "List users."
    assert doc.args == {}
