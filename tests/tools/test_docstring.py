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


def test_parse_docstring__parameters_section_is_read_as_args_not_description():
    # A hand-written parser knew only "Args:"/"Arguments:": "Parameters:" leaked into the tool
    # description the model sees, and the arguments looked undescribed.
    doc = parse_docstring(
        """Cancel an order.

        Parameters:
            order_id: The order, such as '#W0000000'.
        """
    )
    assert doc.description == "Cancel an order."
    assert doc.args == {"order_id": "The order, such as '#W0000000'."}


def test_parse_docstring__a_later_section_does_not_run_into_the_last_argument():
    doc = parse_docstring(
        """Count items.

        Args:
            kind: Which items.

        Yield:
            Counts.
        """
    )
    assert doc.args == {"kind": "Which items."}


def test_parse_docstring__star_arguments_lose_their_stars():
    doc = parse_docstring("Log.\n\nArgs:\n    *parts: Pieces.\n    **extra: More.\n")
    assert doc.args == {"parts": "Pieces.", "extra": "More."}
