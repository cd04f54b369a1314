"""Nothing read from outside (task files, data files, model replies) is ever executed (issue 9)."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGE_FOLDERS = ("tau_env", "domains", "wrappers", "baselines")
FORBIDDEN_CALLS = {"eval", "exec", "compile", "__import__"}
FORBIDDEN_MODULES = {"pickle", "cPickle", "dill", "marshal", "shelve"}


def _python_files() -> list[Path]:
    return [p for folder in PACKAGE_FOLDERS for p in (REPO / folder).rglob("*.py")]


def test_package_never_calls_eval_exec_or_dynamic_import():
    offenders = []
    for path in _python_files():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            called = node.func if isinstance(node, ast.Call) else None
            if isinstance(called, ast.Name) and called.id in FORBIDDEN_CALLS:
                offenders.append(f"{path.relative_to(REPO)}:{node.lineno} {called.id}()")
    assert offenders == []


def test_package_never_unpickles():
    offenders = []
    for path in _python_files():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module.split(".")[0]]
            offenders += [
                f"{path.relative_to(REPO)}:{node.lineno} {n}"
                for n in names
                if n in FORBIDDEN_MODULES
            ]
    assert offenders == []


def test_yaml_is_only_loaded_safely():
    for path in _python_files():
        text = path.read_text()
        assert "yaml.load(" not in text and "yaml.unsafe_load" not in text, path
