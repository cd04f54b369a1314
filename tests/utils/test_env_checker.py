"""`check_env` catches a broken contract, also under ``python -O`` (no bare ``assert``)."""

import subprocess
import sys

# An env whose action space is a new object on every call: PettingZoo's api_test accepts it,
# tau_env's contract does not (wrappers and learners cache the space).
_BROKEN = """
import copy
import tau_env
from tau_env.utils.env_checker import check_env

def make():
    env = tau_env.make_env("mock")
    original = env.unwrapped.action_space
    env.unwrapped.action_space = lambda side: copy.deepcopy(original(side))
    return env

try:
    check_env(make, num_cycles=5)
except AssertionError as error:
    print("caught:", error)
else:
    print("passed")
"""


def test_check_env__still_checks_under_python_optimize():
    # Under -O PettingZoo's api_test (assert statements) lets the broken env through; the
    # check must still come from tau_env's own contract.
    result = subprocess.run(
        [sys.executable, "-O", "-c", _BROKEN], capture_output=True, text=True, check=True
    )
    assert "caught: action_space('agent') returns a new object" in result.stdout, result.stdout


def test_check_env__source_has_no_assert_statement():
    import ast
    import inspect

    from tau_env.utils import env_checker

    tree = ast.parse(inspect.getsource(env_checker))
    assert not [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Assert)]
