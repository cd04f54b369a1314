import pytest
from pydantic import BaseModel

from tau_env.domains.mock import TOOLBOX
from tau_env.errors import ToolDefinitionError
from tau_env.tools import ToolSet, env_function, function_spec, tool


class Leg(BaseModel):
    flight_number: str
    date: str


def test_schema__generated_for_every_mock_tool_in_the_reference_layout():
    tools = [*TOOLBOX.agent_tools, *TOOLBOX.user_tools]
    assert [t.name for t in tools] == [
        "create_task",
        "get_users",
        "update_task_status",
        "transfer_to_human_agents",
        "check_notifications",
        "dismiss_notification",
    ]
    for spec in tools:
        schema = spec.openai_schema()
        assert schema["type"] == "function"
        function = schema["function"]
        assert function["name"] == spec.name
        assert function["description"]
        assert function["parameters"]["type"] == "object"
        assert function["parameters"]["title"] == "parameters"
        for name, prop in function["parameters"].get("properties", {}).items():
            assert prop.get("description"), f"{spec.name}.{name} has no description"


def test_schema__hides_the_database_and_marks_required_and_enum_arguments():
    create = TOOLBOX.agent_tools.get("create_task").openai_schema()["function"]["parameters"]
    assert set(create["properties"]) == {"user_id", "title", "description"}
    assert create["required"] == ["user_id", "title"]
    update = TOOLBOX.agent_tools.get("update_task_status").openai_schema()["function"]["parameters"]
    assert update["properties"]["status"]["enum"] == ["pending", "completed"]


def test_schema__nested_models_appear_as_defs():
    @tool(kind="write")
    def book(db: object, legs: list[Leg]) -> str:
        """Book legs.

        Args:
            legs: The legs to book.
        """
        return "ok"

    parameters = function_spec(book).openai_schema()["function"]["parameters"]
    assert "Leg" in parameters["$defs"]
    assert function_spec(book).validate_arguments({"legs": [{"flight_number": "A1", "date": "d"}]})[
        "legs"
    ] == [Leg(flight_number="A1", date="d")]


def test_kind_and_mutates_state__default_from_kind():
    assert TOOLBOX.agent_tools.get("create_task").mutates_state is True
    assert TOOLBOX.agent_tools.get("get_users").mutates_state is False
    assert TOOLBOX.agent_tools.get("transfer_to_human_agents").kind == "generic"
    assert TOOLBOX.user_tools.get("dismiss_notification").side == "user"


def test_validate_arguments__names_each_bad_argument():
    spec = TOOLBOX.agent_tools.get("create_task")
    with pytest.raises(ValueError) as missing:
        spec.validate_arguments({"user_id": "user_1"})
    assert "'title': Field required" in str(missing.value)
    with pytest.raises(ValueError) as extra:
        spec.validate_arguments({"user_id": "u", "title": "t", "colour": "red"})
    assert "'colour': unexpected argument" in str(extra.value)
    with pytest.raises(ValueError) as mistyped:
        spec.validate_arguments({"user_id": ["u"], "title": "t"})
    assert "'user_id'" in str(mistyped.value)


def test_validate_arguments__a_huge_bad_list_gives_a_short_error():
    # Before (issue 56): a 600 KB list of wrong items gave a 5 MB error text, one problem each.
    create = TOOLBOX.agent_tools.get("create_task")
    with pytest.raises(ValueError) as refused:
        create.validate_arguments({"user_id": "u1", "title": [[i] for i in range(100_000)]})
    text = str(refused.value)
    assert len(text) < 500 and "'title'" in text
    with pytest.raises(ValueError) as many:
        create.validate_arguments({f"extra_{i}": i for i in range(100_000)})
    assert len(str(many.value)) < 500 and str(many.value).endswith("more")


def test_tool__missing_parameter_description_fails_at_registration():
    with pytest.raises(ToolDefinitionError, match="'title': no description"):

        @tool(kind="write")
        def create(db: object, title: str) -> str:
            """Create something."""
            return title


def test_tool__missing_annotation_and_docstring_are_reported_together():
    with pytest.raises(ToolDefinitionError) as error:

        @tool(kind="read")
        def look(db, query):  # type: ignore[no-untyped-def]
            return query

    assert "no docstring summary" in str(error.value)
    assert "'query': no type annotation" in str(error.value)


def test_env_function__needs_no_descriptions():
    @env_function(side="user")
    def setup(db: object, flag: bool) -> None:
        return None

    assert function_spec(setup).kind == "env"


def test_toolset__rejects_duplicates_and_wrong_side():
    create = TOOLBOX.agent_tools.get("create_task").function
    with pytest.raises(ToolDefinitionError, match="registered twice"):
        ToolSet("agent", [create, create])
    with pytest.raises(ToolDefinitionError, match="is a agent function, not user"):
        ToolSet("user", [create])


def _numbers_tool():
    @tool(kind="write")
    def pay(
        db: object,
        count: int,
        amount: float,
        flag: bool,
        limit: int | None = None,
        shares: list[float] | None = None,
        legs: list[Leg] | None = None,
    ) -> str:
        """Pay.

        Args:
            count: How many.
            amount: How much.
            flag: Whether.
            limit: At most.
            shares: Parts.
            legs: Legs.
        """
        return "ok"

    return function_spec(pay)


@pytest.mark.parametrize(
    ("arguments", "argument"),
    [
        ({"count": "5"}, "count"),
        ({"count": 5.0}, "count"),
        ({"count": True}, "count"),
        ({"amount": "2.0"}, "amount"),
        ({"amount": False}, "amount"),
        ({"flag": "true"}, "flag"),
        ({"flag": 1}, "flag"),
        ({"limit": "3"}, "limit"),
        ({"shares": ["0.5"]}, "shares.0"),
    ],
)
def test_validate_arguments__numbers_are_never_converted_from_other_types(arguments, argument):
    spec = _numbers_tool()
    good = {"count": 1, "amount": 1.5, "flag": False}
    with pytest.raises(ValueError) as error:
        spec.validate_arguments({**good, **arguments})
    assert str(error.value).startswith(f"'{argument}': Input should be a valid")


def test_validate_arguments__an_integer_is_accepted_for_a_float_and_kept_as_given():
    spec = _numbers_tool()
    kwargs = spec.validate_arguments({"count": 2, "amount": 3, "flag": True, "shares": [1, 0.5]})
    assert kwargs["amount"] == 3 and type(kwargs["amount"]) is int
    assert kwargs["shares"] == [1, 0.5] and type(kwargs["shares"][0]) is int
    assert spec.validate_arguments({"count": 2, "amount": 2.5, "flag": True})["amount"] == 2.5


def test_validate_arguments__nested_models_keep_their_conversions():
    # The reference builds nested models from the dicts it gets (pydantic converts there).
    spec = _numbers_tool()
    kwargs = spec.validate_arguments(
        {"count": 1, "amount": 1, "flag": True, "legs": [{"flight_number": "A1", "date": "d"}]}
    )
    assert kwargs["legs"] == [Leg(flight_number="A1", date="d")]


def test_schema__exact_numbers_keep_the_reference_types():
    properties = _numbers_tool().openai_schema()["function"]["parameters"]["properties"]
    assert properties["count"]["type"] == "integer"
    assert properties["amount"]["type"] == "number"
    assert properties["flag"]["type"] == "boolean"
    assert properties["shares"]["anyOf"][0] == {"items": {"type": "number"}, "type": "array"}
