"""One safe calculator (`tau_env.tools.calculator`) behind every domain's ``calculate`` tool."""

import pytest

from tau_env.domain import load_domain
from tau_env.errors import ToolError
from tau_env.tools.calculator import evaluate_expression

DOMAINS_WITH_CALCULATE = ("airline", "retail")


def _reference(expression: str) -> str:
    """What the reference computes: eval of the checked expression, rounded, as text."""
    if not all(char in "0123456789+-*/(). " for char in expression):
        return "Error: Invalid characters in expression"
    try:
        return str(round(float(eval(expression, {"__builtins__": None}, {})), 2))
    except Exception as error:
        return f"Error: {error}"


def _evaluate(expression: str) -> str:
    try:
        return evaluate_expression(expression)
    except ToolError as error:
        return f"Error: {error}"


EXPRESSIONS = [
    "2 + 2",
    "(129.99 - 99.5) * 2",
    "1/3",
    "10 // 4",
    "-3 * -(2 + 1)",
    "2 ** 10",
    "2 ** 1001",
    "2 ** -2",
    "10.0 ** 400",
    "0 ** -1",
    "(-8) ** 0.5",
    "0.1 + 0.2",
    "1 / 0",
    "2 +",
    "(1 + 2",
    "1 2",
    "()",
    "  1 + 1",
    "2 + x",
    "1e5",
    "1.5 / 0",
    "",
    ".",
    "3 % 2",
    "__import__('os')",
    "(100 - 30) / 3",
    "-(2.5 * 2)",
    "7 // 2",
    "1 +",
]


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_evaluate_expression__matches_the_reference_eval(expression):
    assert _evaluate(expression) == _reference(expression)


def test_evaluate_expression__refuses_a_power_that_would_hang_eval():
    with pytest.raises(ToolError, match="int too large to convert to float"):
        evaluate_expression("9 ** 9 ** 9")


@pytest.mark.parametrize("expression", [*EXPRESSIONS, "9 ** 9 ** 9", "99 ** 9999"])
def test_calculate__every_domain_gives_the_shared_calculators_answer(expression):
    answers = set()
    for name in DOMAINS_WITH_CALCULATE:
        world = load_domain(name).new_world()
        result = world.call_tool("agent", "calculate", {"expression": expression})
        answers.add(result.content)
    assert answers == {_evaluate(expression)}
