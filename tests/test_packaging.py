import subprocess
import sys
import tomllib
from pathlib import Path

from tests.fresh_imports import loaded_after

REPO = Path(__file__).resolve().parents[1]
ROOTS = {
    "tau_env": "tau_env",
    "domains": "tau_env.domains",
    "wrappers": "tau_env.wrappers",
    "baselines": "tau_env.baselines",
}


def test_pyproject__lists_every_package_folder():
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    found = set()
    for folder, prefix in ROOTS.items():
        for init in (REPO / folder).rglob("__init__.py"):
            relative = init.parent.relative_to(REPO / folder).parts
            found.add(".".join((prefix, *relative)))
    assert found - listed == set(), "folders missing from pyproject packages"
    assert listed - found == set(), "pyproject lists packages that do not exist"


def test_pyproject__ships_every_data_file_the_code_reads():
    """A wheel holds a package's non-Python files only when package-data names them: each data
    file in the package folders (READMEs are for readers of the repository) matches a pattern."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]
    files = [p.relative_to(REPO) for root in ROOTS for p in (REPO / root).rglob("*") if p.is_file()]
    unshipped = []
    for path in files:
        if path.suffix in (".py", ".pyc") or path.name == "README.md":
            continue
        package_folder = next(p for p in path.parents if (REPO / p / "__init__.py").exists())
        folder, *inner = package_folder.parts
        package = ".".join((ROOTS[folder], *inner))
        within = path.relative_to(package_folder)
        if not any(within.match(glob) for glob in patterns.get(package, [])):
            unshipped.append(str(path))
    assert unshipped == [], "data files a wheel would leave out"


def test_import__loads_neither_litellm_nor_torch_nor_domains():
    heavy = ("litellm", "torch", "tau_env.domains.mock", "pettingzoo")
    found = loaded_after("import tau_env; tau_env.make_env", heavy)
    assert found == [], f"imported at import time: {found}"


# The training stacks behind the trl, openenv and skyrl extras (installed under CI=true).
TRAINING_STACKS = (
    "torch",
    "transformers",
    "trl",
    "datasets",
    "fastapi",
    "uvicorn",
    "openenv",
    "skyrl_gym",
)


def test_import__loads_no_training_stack_even_through_chat_and_integrations():
    statements = "import tau_env, tau_env.chat, tau_env.integrations; tau_env.make_env"
    found = loaded_after(statements, TRAINING_STACKS)
    assert found == [], f"imported at import time: {found}"


def test_make_env__does_not_import_litellm_or_torch():
    statements = "import tau_env; env = tau_env.make_env('mock'); env.reset(seed=0)"
    assert loaded_after(statements, ("litellm", "torch")) == []


def test_import__registers_the_gymnasium_ids_and_lists_the_public_names():
    # As Gymnasium's third-party packages do: `import tau_env` is enough for gymnasium.make.
    code = (
        "import gymnasium, tau_env; "
        "print(sorted(k for k in gymnasium.registry if k.startswith('tau_env/'))); "
        "print(dir(tau_env)); print(type(tau_env.registry).__name__)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    ids, names, registry_type = out.stdout.strip().splitlines()
    import tau_env
    from tau_env.wrappers.registration import register_gym_envs

    assert eval(ids) == sorted(register_gym_envs())

    assert eval(names) == sorted(tau_env.__all__)
    assert "make_env" in tau_env.__all__ and "import_module" not in eval(names)
    assert registry_type == "dict", "tau_env.registry must be the table of specs, not its module"
