"""What the README, the front page, promises, checked against the code.

The rest of the documentation lives in docs/ (tests/docs checks its pages and runs its blocks).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tau_env.cli.main import main
from tests.docs.blocks import REPO, blocks_of, commands_of

README_PATH = REPO / "README.md"
README = README_PATH.read_text(encoding="utf-8")
MAX_LINES = 200


def test_readme__is_a_front_page_under_200_lines():
    assert len(README.splitlines()) < MAX_LINES


def test_readme__says_what_the_main_job_demonstrates():
    text = " ".join(README.split())
    assert "*oracle* agent, which reads each task's gold plan" in text
    assert "pass^k of 1.000 holds by construction" in text
    assert "tau-env run --agent random" in README
    assert "pip install -e ." in README and "pip install tau-env" in README


def test_readme__skip_count_without_official_data_is_the_one_it_states(tmp_path):
    stated = re.search(r"(\d+) tests need the official τ²-bench data", README)
    assert stated, "the README must say how many tests need the official data"
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "official_data", "tests"],
        cwd=REPO,
        env={**_environment(), "TAU2_DATA_DIR": str(tmp_path / "no-data")},
        capture_output=True,
        text=True,
    )
    found = re.search(r"^(\d+)/\d+ tests collected", result.stdout, re.MULTILINE)
    assert found, result.stdout[-2000:] + result.stderr[-2000:]
    assert int(found[1]) == int(stated[1]), (
        f"without the data {found[1]} tests skip, the README says {stated[1]}: update the "
        "number in README.md"
    )


def _environment() -> dict[str, str]:
    return {name: value for name, value in os.environ.items() if name != "PYTEST_ADDOPTS"}


def _offline(monkeypatch, tmp_path) -> None:
    for name in list(os.environ):
        if name.endswith(("_API_KEY", "_API_BASE", "_BASE_URL")) or name == "TAU2_DATA_DIR":
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)


def _block_naming(page: Path, test: str):
    (block,) = [block for block in blocks_of(page) if block.argument.endswith(f"::{test}")]
    return block


def test_readme__main_job_runs_as_the_first_screen_says(tmp_path, monkeypatch, capsys):
    # The main job's block of the README and of docs/getting-started.md (which adds `report`):
    # the README's commands are the page's first ones, so running the page's runs both.
    test = "test_readme__main_job_runs_as_the_first_screen_says"
    readme = [command.text for command in commands_of(_block_naming(README_PATH, test).code)]
    page = commands_of(_block_naming(REPO / "docs" / "getting-started.md", test).code)
    assert [command.text for command in page[: len(readme)]] == readme
    _offline(monkeypatch, tmp_path)
    scores = {}
    for command in page:
        assert main(command.words[1:]) == 0, command.text
        printed = capsys.readouterr().out
        scores[command.text] = float(re.findall(r"pass\^1=([\d.]+)", printed)[-1])
    assert scores["tau-env run"] == 1.0  # the oracle: by construction
    stated = re.search(r"--agent random` plays .*?pass\^1 about\s+([\d.]+)", README, re.S)
    assert stated
    assert abs(scores["tau-env run --agent random"] - float(stated[1])) < 0.02, scores
    assert scores["tau-env report"] == scores["tau-env run --agent random"]  # the last run


def test_readme__example_plays_both_apis_offline(tmp_path, monkeypatch, capsys):
    block = _block_naming(README_PATH, "test_readme__example_plays_both_apis_offline")
    assert len(block.code.splitlines()) <= 21  # "in 20 lines", one blank line more for isort
    _offline(monkeypatch, tmp_path)
    namespace: dict[str, object] = {}
    exec(compile(block.code, block.name, "exec"), namespace)
    assert namespace["env"].spec.id == "tau_env/Mock-v0"
    assert namespace["reward"] == 1.0 and namespace["terminated"]  # the task is done
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("random agent and user: ")
    assert printed[1].startswith("user: ") and printed[2].endswith("| reward: 1.0")


def test_readme__links_name_existing_pages_and_headings():
    for target, anchor in re.findall(r"\]\((docs/[^)#]+\.md)(?:#([^)]+))?\)", README):
        page = REPO / target
        assert page.is_file(), target
        if anchor:
            headings = re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), re.M)
            assert anchor in {_slug(heading) for heading in headings}, f"{target}#{anchor}"


def _slug(heading: str) -> str:
    """The anchor MkDocs (and GitHub) give a heading: lower case, punctuation dropped."""
    return re.sub(r"[\s]+", "-", re.sub(r"[^\w\s-]", "", heading.lower()).strip())
