"""A missing optional extra is one clear line naming the extra (issue 42).

Before, the training routes failed with a bare ``ModuleNotFoundError: No module named
'torch'``. The extras are hidden here by making ``find_spec`` report them absent, so the test
runs the same with or without them installed.
"""

import importlib.util
import runpy
import sys

import pytest

from tau_env.cli.main import main
from tau_env.errors import TauEnvError
from tau_env.utils.extras import INSTALL, MissingExtra, missing_extra, require_extra


@pytest.fixture
def hide(monkeypatch):
    """Make the named top-level modules look not installed."""
    hidden: set[str] = set()
    real = importlib.util.find_spec

    def find_spec(name, *args, **kwargs):
        return None if name.partition(".")[0] in hidden else real(name, *args, **kwargs)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    return hidden


def test_require_extra__names_the_extra_the_missing_module_and_the_command(hide):
    hide.add("torch")
    with pytest.raises(MissingExtra) as caught:
        require_extra("trl", "json", "torch", feature="my feature")
    assert str(caught.value) == (
        "my feature needs the trl extra (torch is not installed): "
        "pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu && "
        "pip install 'tau-env[trl]'"
    )
    assert isinstance(caught.value, ImportError) and isinstance(caught.value, TauEnvError)
    require_extra("trl", "json", feature="fine")  # installed: nothing raised


def test_missing_extra__only_for_a_module_that_is_not_installed(hide):
    hide.add("skyrl_gym")
    gone = ModuleNotFoundError("No module named 'skyrl_gym.envs'", name="skyrl_gym.envs")
    assert isinstance(missing_extra("skyrl", gone, feature="f"), MissingExtra)
    broken = ImportError("cannot import name 'x' from 'json'", name="json")
    assert missing_extra("skyrl", broken, feature="f") is broken  # installed but broken


def test_every_extra_has_an_install_command():
    assert set(INSTALL) == {"llm", "rl", "ray", "trl", "openenv", "skyrl"}
    assert all("pip install 'tau-env[" in command for command in INSTALL.values())


@pytest.mark.parametrize(
    ("module", "extra"),
    [("tau_env.baselines.grpo_telecom", "trl"), ("tau_env.baselines.sb3_train", "rl")],
)
def test_training_commands__without_their_extra_print_one_line_and_exit_2(
    hide, monkeypatch, capsys, module, extra
):
    hide.add("torch")
    monkeypatch.setattr(sys, "argv", [module, "--out", "unused"])
    monkeypatch.delitem(sys.modules, module, raising=False)
    with pytest.raises(SystemExit) as caught:
        runpy.run_module(module, run_name="__main__")
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert err == f"error: {module} needs the {extra} extra (torch is not installed): " + (
        f"{INSTALL[extra]}\n"
    )


def test_cli__a_missing_extra_is_one_error_line_exit_2(monkeypatch, capsys):
    def refuse(args):
        raise MissingExtra("serve needs the openenv extra: pip install 'tau-env[openenv]'")

    import tau_env.cli.tasks as tasks_command

    monkeypatch.setattr(tasks_command, "handle", refuse)
    assert main(["tasks"]) == 2
    assert capsys.readouterr().err == (
        "tau-env: error: serve needs the openenv extra: pip install 'tau-env[openenv]'\n"
    )
