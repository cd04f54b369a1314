"""`tests.extras.require` and the CI scripts that run the suite with and without the extras.

A test module that needs an extra calls ``require`` at its top level; without the extra the
module is skipped with the extra's name (a new user's ``python -m pytest`` passes), and under
CI=true it is a failure (CI installs every extra). Each case runs pytest in a subprocess on a
module that requires a package that does not exist.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

MODULE = """
from tests.extras import require

require("tau_env_no_such_package", "imaginary")


def test_never_runs():
    assert False
"""

IN_A_TEST = """
from tests.extras import require


def test_skips_itself():
    require("tau_env_no_such_package", "imaginary")
    assert False


def test_runs():
    assert True
"""


def _pytest(tmp_path, source, *, ci):
    (tmp_path / "test_needs_extra.py").write_text(source)
    (tmp_path / "test_other.py").write_text("def test_other():\n    assert True\n")
    env = {key: value for key, value in os.environ.items() if key != "CI"}
    if ci:
        env["CI"] = "true"
    env["PYTHONPATH"] = str(REPO)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-rs", "-p", "no:cacheprovider", str(tmp_path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_require__at_module_level_skips_the_module_with_the_extras_name(tmp_path):
    result = _pytest(tmp_path, MODULE, ci=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 passed, 1 skipped" in result.stdout
    assert "tau_env_no_such_package is not installed (the imaginary extra)" in result.stdout
    assert "error" not in result.stdout.lower()


def test_require__inside_a_test_skips_only_that_test(tmp_path):
    result = _pytest(tmp_path, IN_A_TEST, ci=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 passed, 1 skipped" in result.stdout


@pytest.mark.parametrize("source", [MODULE, IN_A_TEST], ids=["module", "test"])
def test_require__is_a_failure_under_ci(tmp_path, source):
    result = _pytest(tmp_path, source, ci=True)
    assert result.returncode in (1, 2), result.stdout + result.stderr  # failed / collection error
    assert "CI must install the imaginary extra" in result.stdout


def test_ci_run__runs_the_minimal_install_with_the_readmes_commands_and_the_full_one():
    ci_run = (REPO / ".ci" / "run").read_text()
    minimal = (REPO / ".ci" / "fresh-install-test").read_text()
    assert 'env -u CI "$repo/.ci/fresh-install-test"' in ci_run
    assert "export CI=true" in ci_run and "python -m pytest            # the README" in ci_run
    assert "python -m pip install --quiet -e .     # the README" in minimal  # the user's install
    assert '(cd "$work" && tau-env run)' in minimal  # the README's main job
    assert 'python -m pip install --quiet -e ".[test]"' in minimal  # the README's test install
    assert 'python -m pytest "$@"' in minimal  # the README's test command
    assert ".[test,ray,rl,trl,openenv,skyrl,docs]" in ci_run  # every extra, the docs' too
    readme = (REPO / "README.md").read_text()
    assert "pip install -e .  " in readme and "tau-env run  " in readme
    assert 'pip install -e ".[test]"' in readme and "python -m pytest" in readme
    for script in (ci_run, minimal):  # "no tests collected" is never a pass
        assert '"$status" -eq 5' in script
    assert os.access(REPO / ".ci" / "fresh-install-test", os.X_OK)


def test_verifiers_venv__unset_is_said_so_not_shown_as_a_path(monkeypatch):
    # Issue 55 item 9: the skip reason showed TAU_ENV_VERIFIERS_VENV=/nonexistent, unset.
    from tests.extras import verifiers_venv

    monkeypatch.delenv("TAU_ENV_VERIFIERS_VENV", raising=False)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception) as skipped:
        verifiers_venv()
    assert str(skipped.value) == (
        "TAU_ENV_VERIFIERS_VENV is not set (a venv with verifiers, vf-eval and uv)"
    )
