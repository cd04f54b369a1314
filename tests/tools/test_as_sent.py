"""Call errors worded as CPython words them for the reference's toolkit methods."""

import pytest

from tau_env.tools.as_sent import binding_error, keywords_error

LABEL = "KnowledgeTools.change_user_email"
PARAMETERS = ("user_id", "new_email", "note")
REQUIRED = frozenset({"user_id", "new_email"})


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"user_id": "u", "new_email": "e"}, None),
        ({"user_id": "u", "new_email": "e", "note": 1}, None),
        (
            {"user_id": "u"},
            "KnowledgeTools.change_user_email() missing 1 required positional argument: "
            "'new_email'",
        ),
        (
            {},
            "KnowledgeTools.change_user_email() missing 2 required positional arguments: "
            "'user_id' and 'new_email'",
        ),
        (
            {"zzz": 1},  # an unexpected argument is named before the missing ones
            "KnowledgeTools.change_user_email() got an unexpected keyword argument 'zzz'",
        ),
        (
            {"user_id": "u", "tool_name": 1, "self": 2},
            "Environment.make_tool_call() got multiple values for argument 'tool_name'",
        ),
        (
            {"self": 2, "requestor": 1},
            "tau2.environment.environment.Environment.make_tool_call() got multiple values for "
            "keyword argument 'requestor'",
        ),
    ],
)
def test_binding_error__as_the_reference_environment_words_it(arguments, message):
    assert binding_error(LABEL, PARAMETERS, REQUIRED, arguments) == message


def test_keywords_error__three_missing_are_listed_with_a_final_and():
    message = keywords_error("T.f", ("a", "b", "c"), {"a", "b", "c"}, {})
    assert message == "T.f() missing 3 required positional arguments: 'a', 'b', and 'c'"


def test_keywords_error__self_is_bound_already():
    message = keywords_error("T.f", ("a",), {"a"}, {"a": 1, "self": 1})
    assert message == "T.f() got multiple values for argument 'self'"
