"""The import graph of the installed package ``tau_env`` (core, domains, wrappers, baselines) has
no cycle.

Every ``import`` statement counts: at module level, inside functions (a lazy import is still a
dependency) and under ``if TYPE_CHECKING:`` (a type-only import still ties the two modules
together). Only explicit edges count, not the implicit import of a module's parent packages.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ROOTS = {
    "tau_env": REPO / "tau_env",
    "tau_env.domains": REPO / "domains",
    "tau_env.wrappers": REPO / "wrappers",
    "tau_env.baselines": REPO / "baselines",
}


def package_modules() -> dict[str, tuple[Path, bool]]:
    """Module name -> (file, is a package ``__init__``), as the package is installed."""
    modules: dict[str, tuple[Path, bool]] = {}
    for prefix, folder in ROOTS.items():
        for path in folder.rglob("*.py"):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts.pop()
            modules[".".join([prefix, *parts])] = (path, is_package)
    return modules


def _imported_names(module: str, is_package: bool, tree: ast.AST) -> set[str]:
    """Every dotted name an import statement of the module names (``from a import b``: a.b)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module if is_package else module.rpartition(".")[0]
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = f"{package}.{base}" if base else package
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def import_graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports (the longest known prefix of each name)."""
    modules = package_modules()
    graph: dict[str, set[str]] = {}
    for name, (path, is_package) in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        targets = set()
        for imported in _imported_names(name, is_package, tree):
            while imported and imported not in modules:
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                targets.add(imported)
        graph[name] = targets
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (its modules in import order, the first repeated last), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (cycle := visit(target)) is not None:
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)) is not None:
            return cycle
    return None


def test_import_graph__has_no_cycle():
    graph = import_graph()
    assert "tau_env.registry" in graph and "tau_env.domains.retail.tools" in graph
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_registry__imports_nothing_heavy():
    # The table of names is read by the domain loader and the constructors; it imports neither.
    assert import_graph()["tau_env.registry"] == {"tau_env.errors"}


def test_find_cycle__sees_lazy_and_type_only_imports(tmp_path):
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from tau_env.domain import Domain\n"
        "def f():\n    from . import setup\n"
    )
    assert _imported_names("tau_env.tasks.model", False, tree) >= {
        "tau_env.domain.Domain",
        "tau_env.tasks.setup",
    }
