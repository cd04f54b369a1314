"""Shared fixtures: the official data folder, and fresh mock environments."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import tau_env

_REPO = Path(__file__).resolve().parents[1]


_DATA_SETTING = os.environ.pop("TAU2_DATA_DIR", None)
"""``TAU2_DATA_DIR`` as the suite was started with: where the tests find the official data.

It is taken out of the environment when the suite starts: the command line reads it as
``--data-dir``'s default, and a command a test runs (in the test's process or in a child,
from a fixture of any scope) must play the data it names, the built-in data unless it passes
``--data-dir``. Child test sessions that need the folder are given it explicitly."""


OFFICIAL_DATA_MARKER = "official_data"
"""Marks every test that needs the official data (it uses the `data_dir` fixture); without the
data exactly these skip. ``pytest -m "not official_data"`` runs the others."""


def official_data_dir() -> Path | None:
    """``TAU2_DATA_DIR`` when set, else ``../shared/tau2-data`` next to the repository.

    A ``TAU2_DATA_DIR`` that names no data folder means "no official data" (it does not fall
    back), so ``TAU2_DATA_DIR=/nowhere python -m pytest`` runs as on a machine without it.
    """
    chosen = _DATA_SETTING
    # Absolute: tests link to files in it from temporary folders (a relative path would not).
    candidate = Path(chosen).resolve() if chosen else _REPO.parent / "shared" / "tau2-data"
    return candidate if (candidate / "domains").is_dir() else None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests that need the official data (directly or through a fixture).

    A test parametrized over `domain_sources` takes ``data_dir`` (or a source pair) as a
    parameter, None for the built-in data: only its official cases need the data, and they
    exist only when the data is there (before issue 42, the built-in cases were marked too, and
    58 "tests that need the official data" passed without it).
    """
    data = official_data_dir()
    folder = str(data) if data is not None else None

    def official(value: object) -> bool:
        """A parameter naming the official data: its folder, or "official" (for a fixture
        parametrized ``["built-in", "official"]`` that then asks for `data_dir`)."""
        if isinstance(value, tuple | list):
            return any(official(part) for part in value)
        if value == "official":
            return True
        return folder is not None and isinstance(value, str | Path) and str(value) == folder

    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if "data_dir" in params:
            needs = params["data_dir"] is not None
        else:
            needs = "data_dir" in getattr(item, "fixturenames", ())
        if needs or any(official(value) for value in params.values()):
            item.add_marker(OFFICIAL_DATA_MARKER)


def domain_sources() -> list[tuple[str, str | None]]:
    """Every registered domain on built-in data (None), then on the official data it loads from.

    A domain counts as having official data when loading it from the folder succeeds
    (``telecom-workflow`` reads ``domains/telecom/``), not when a folder of its name exists.
    """
    from tau_env.domain import has_builtin_data, load_domain, registered_domains
    from tau_env.errors import DataError

    data = official_data_dir()
    sources: list[tuple[str, str | None]] = [
        (name, None) for name in registered_domains() if has_builtin_data(name)
    ]
    if data is not None:
        for name in registered_domains():
            try:
                load_domain(name, data)
            except DataError:
                continue
            sources.append((name, str(data)))
    return sources


def each_source():
    """Parametrize a test by ``domain_name`` and ``data_dir`` over every `domain_sources`."""
    sources = domain_sources()
    ids = [source_id(source) for source in sources]
    return pytest.mark.parametrize(("domain_name", "data_dir"), sources, ids=ids)


def source_id(source: tuple[str, str | None]) -> str:
    """A readable pytest id for a (domain, data_dir) pair."""
    return f"{source[0]}-{'official' if source[1] else 'builtin'}"


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The official τ²-bench data; skipped when absent, a failure under CI=true."""
    found = official_data_dir()
    if found is None:
        reason = "official tau2 data not found (set TAU2_DATA_DIR or place ../shared/tau2-data)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return found


@pytest.fixture
def mock_env():
    """A fresh wrapped env on the built-in mock data."""
    return tau_env.make_env("mock")


@pytest.fixture
def raw_mock_env():
    """A fresh bare TauEnv on the built-in mock data."""
    return tau_env.make_env("mock").unwrapped


NL_TASK = "create_task"
"""The task `nl_mock_dir` scores by NL assertions too (the rest of its data is built-in mock)."""


@pytest.fixture(scope="session")
def nl_mock_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder in the official layout: the built-in mock data, with `NL_TASK` graded
    DB x COMMUNICATE x NL_ASSERTION (one assertion), for judging tests without official data.
    """
    import json
    import shutil

    source = _REPO / "domains" / "mock"
    root = tmp_path_factory.mktemp("nl_mock")
    folder = root / "domains" / "mock"
    folder.mkdir(parents=True)
    for built_in, official in (
        ("data/builtin_db.json", "db.json"),
        ("data/builtin_user_db.json", "user_db.json"),
        ("data/builtin_split_tasks.json", "split_tasks.json"),
        ("policy.md", "policy.md"),
    ):
        shutil.copy(source / built_in, folder / official)
    tasks = json.loads((source / "data" / "builtin_tasks.json").read_text())
    for task in tasks:
        if task["id"] == NL_TASK:
            criteria = task["evaluation_criteria"]
            criteria["nl_assertions"] = ["The agent tells the user the new task's id."]
            criteria["reward_basis"] = [*criteria["reward_basis"], "NL_ASSERTION"]
    (folder / "tasks.json").write_text(json.dumps(tasks))
    return root


@pytest.fixture(scope="module")
def ray():
    """A local Ray of 2 CPUs for the module's tests; skipped without the extra, a failure under
    CI=true."""
    try:
        import ray
    except ImportError:
        reason = "ray is not installed (pip install -e '.[ray]')"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()
