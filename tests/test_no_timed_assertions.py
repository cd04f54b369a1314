"""Speed is measured in benchmarks/, never asserted in tests/ (timings flake on shared machines)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
CLOCKS = {"perf_counter", "perf_counter_ns", "process_time", "monotonic", "time", "time_ns"}
TIMING_NAMES = {"elapsed", "duration", "wall", "wall_time", "seconds_taken", "latency_ms"}


def _names(node: ast.AST) -> set[str]:
    found = set()
    for child in ast.walk(node):
        if isinstance(child, ast.Name):
            found.add(child.id)
        elif isinstance(child, ast.Attribute):
            found.add(child.attr)
    return found


def _is_timed(test: ast.expr) -> bool:
    """An assertion that reads a clock, or bounds an elapsed time with <, <=, > or >=."""
    ordering = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)
    for node in ast.walk(test):
        if isinstance(node, ast.Call) and _names(node.func) & CLOCKS:
            return True
        bounded = isinstance(node, ast.Compare) and any(isinstance(o, ordering) for o in node.ops)
        if bounded and _names(node) & TIMING_NAMES:
            return True
    return False


def test_no_assertion_in_tests_depends_on_a_clock():
    offenders = []
    for path in TESTS.rglob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Assert) and _is_timed(node.test):
                offenders.append(f"{path.relative_to(TESTS)}:{node.lineno}")
            if isinstance(node, ast.Import | ast.ImportFrom):
                modules = (
                    [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
                )
                if "timeit" in modules or "pytest_benchmark" in modules:
                    offenders.append(f"{path.relative_to(TESTS)}:{node.lineno} imports a timer")
    assert offenders == []
