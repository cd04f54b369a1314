"""A small arithmetic evaluator for the ``calculate`` tool.

The reference evaluates the expression with Python's ``eval`` after checking its characters.
This module gives the same results and the same error texts for every expression that
terminates there, without ``eval``: it walks the parsed expression and allows only numbers,
``+ - * / // **``, unary signs and parentheses. Powers with huge exponents, which never
return in the reference, are refused.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable

from tau_env.domains.retail.constants import CALCULATOR_CHARACTERS, MAX_EXPONENT
from tau_env.errors import ToolError

__all__ = ["evaluate"]

Number = int | float

_BINARY: dict[type[ast.operator], Callable[[Number, Number], Number]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Pow: operator.pow,
}
_UNARY: dict[type[ast.unaryop], Callable[[Number], Number]] = {
    ast.UAdd: operator.pos,
    ast.USub: operator.neg,
}


def evaluate(expression: str) -> str:
    """The value of `expression` rounded to 2 decimals, as text (``"4.0"`` for ``"2 + 2"``).

    Raises:
        ToolError: Characters other than digits, ``+-*/().`` and spaces; a syntax error; a
            division by zero; a result that is not a number; an exponent above `MAX_EXPONENT`.
    """
    if not all(char in CALCULATOR_CHARACTERS for char in expression):
        raise ToolError("Invalid characters in expression")
    try:
        tree = ast.parse(expression, filename="<string>", mode="eval")
        value = _value(tree.body)
        return str(round(float(value), 2))
    except (SyntaxError, ArithmeticError, TypeError, ValueError) as error:
        raise ToolError(str(error)) from None


def _value(node: ast.expr) -> Number:
    value = node.value if isinstance(node, ast.Constant) else None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_value(node.operand))
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _value(node.left), _value(node.right)
        if isinstance(node.op, ast.Pow) and abs(right) > MAX_EXPONENT:
            raise ValueError(f"Exponent too large: {right}")
        return _BINARY[type(node.op)](left, right)
    if isinstance(node, ast.Tuple) and not node.elts:  # "()": the reference fails in float()
        return float(())  # type: ignore[arg-type]  # raises the reference's TypeError text
    raise ValueError(f"Unsupported expression: {ast.unparse(node)}")
