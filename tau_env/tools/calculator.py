"""Safe arithmetic for the ``calculate`` tool of every domain that has one (airline, retail).

The reference checks the expression's characters, then evaluates it with Python's ``eval``.
This module gives the same results and the same error texts without ``eval``: it parses with
Python's own parser (same syntax errors) and applies Python's own operators (same arithmetic
errors) to the parsed tree, allowing only numbers, ``+ - * / // **``, unary signs and
parentheses. One deliberate difference: a power whose exact result would need more than
`MAX_POWER_BITS` bits is refused with the message Python gives when converting such a number to
float (what ``eval`` would end with, had it not hung computing ``9 ** 9 ** 9`` first).
"""

from __future__ import annotations

import ast
import functools
import math
import operator
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, Final

from tau_env.errors import ToolError

__all__ = ["CALCULATOR_CHARACTERS", "MAX_POWER_BITS", "evaluate_expression"]

CALCULATOR_CHARACTERS: Final = frozenset("0123456789+-*/(). ")
"""The only characters ``calculate`` accepts (the reference's set)."""

MAX_POWER_BITS: Final = 1_000_000
"""Largest exact power evaluated, in bits; larger ones cannot become a float anyway."""

_BINARY: Mapping[type[ast.operator], Callable[[Any, Any], Any]] = MappingProxyType(
    {
        ast.Add: operator.add,
        ast.Sub: operator.sub,
        ast.Mult: operator.mul,
        ast.Div: operator.truediv,
        ast.FloorDiv: operator.floordiv,
    }
)
_UNARY: Mapping[type[ast.unaryop], Callable[[Any], Any]] = MappingProxyType(
    {
        ast.UAdd: operator.pos,
        ast.USub: operator.neg,
    }
)


@functools.lru_cache(maxsize=4096)
def evaluate_expression(expression: str) -> str:
    """The value of an arithmetic expression, rounded to 2 decimals, as text (e.g. ``"4.0"``).

    A pure function of the text, so results are cached (parsing is most of its cost; errors
    are not cached and are raised again each time).

    Raises:
        ToolError: A character outside digits, ``+-*/().`` and space; a syntax error; an
            arithmetic error (the texts Python gives, e.g. ``division by zero``).
    """
    if not all(char in CALCULATOR_CHARACTERS for char in expression):
        raise ToolError("Invalid characters in expression")
    try:
        # ``eval`` of a string ignores leading spaces and tabs; the parser alone does not.
        tree = ast.parse(expression.lstrip(" \t"), filename="<string>", mode="eval")
        value = _value(tree.body)
        return str(round(float(value), 2))
    except (ArithmeticError, SyntaxError, TypeError, ValueError, RecursionError) as error:
        raise ToolError(str(error)) from None


def _value(node: ast.expr) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Tuple):  # only ``()`` can be written with the allowed characters
        return tuple(_value(item) for item in node.elts)
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_value(node.operand))
    if isinstance(node, ast.BinOp):
        left, right = _value(node.left), _value(node.right)
        if isinstance(node.op, ast.Pow):
            return _power(left, right)
        if type(node.op) in _BINARY:
            return _BINARY[type(node.op)](left, right)
    raise SyntaxError("invalid syntax (<string>, line 1)")  # not reachable with allowed chars


def _power(base: Any, exponent: Any) -> Any:
    exact = isinstance(base, int) and isinstance(exponent, int)
    huge = exact and exponent > 0 and abs(base) > 1 and exponent * math.log2(abs(base))
    if huge and huge > MAX_POWER_BITS:
        raise OverflowError("int too large to convert to float")
    return operator.pow(base, exponent)
