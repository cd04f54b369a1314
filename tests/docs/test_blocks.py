"""Every command and code block of the README and docs/ runs in a test, or says why it cannot.

Unmarked blocks run here as written, in a temporary folder, offline and without any API key or
``TAU2_DATA_DIR``; ``official-data`` blocks run on the official data. ``tested-by`` blocks are
run by the test they name, and ``not-run`` blocks say what they need (see `tests.docs.blocks`).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from tau_env.cli.main import main
from tests.docs.blocks import (
    COMMAND_LANGUAGES,
    EXAMPLE_LANGUAGES,
    OFFICIAL_DATA_PLACEHOLDER,
    REPO,
    Block,
    all_blocks,
    command_blocks,
    commands_of,
    program_of,
)

KINDS = ("run", "official-data", "tested-by", "not-run")


def _ids(blocks: list[Block]) -> list[str]:
    return [block.name for block in blocks]


def _offline(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    """A new user's machine: no key, no model server, no official data; a fresh folder."""
    for name in list(os.environ):
        if name.endswith(("_API_KEY", "_API_BASE", "_BASE_URL")) or name == "TAU2_DATA_DIR":
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)


def _run(block: Block, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    """Run a block as written: Python whole, bash line by line (``tau-env`` in process)."""
    if COMMAND_LANGUAGES[block.language] == "python":
        exec(compile(block.code, block.name, "exec"), {"__name__": "__docs__"})
        return
    for command in commands_of(block.code):
        words = command.words
        if words[0] == "export" and len(words) == 2 and "=" in words[1]:
            name, value = words[1].split("=", 1)
            monkeypatch.setenv(name, value)
            continue
        assert words[0] == "tau-env", (
            f"{block.name}: this runner runs `tau-env` and `export` lines; `{command.text}` "
            "needs a marker (tested-by or not-run, see docs/contributing.md)"
        )
        try:
            code = main(words[1:])
        except SystemExit as exit:  # argparse's usage errors
            code = exit.code if isinstance(exit.code, int) else 2
        output = capsys.readouterr()
        assert code == command.exit_code, (
            f"{block.name}: `{command.text}` exited {code}, the page says {command.exit_code}\n"
            f"{output.out[-2000:]}{output.err[-2000:]}"
        )


@pytest.mark.parametrize("block", command_blocks("run"), ids=_ids(command_blocks("run")))
def test_block__runs_as_written_offline(block, tmp_path, monkeypatch, capsys):
    _offline(monkeypatch, tmp_path)
    _run(block, monkeypatch, capsys)


OFFICIAL = command_blocks("official-data")


@pytest.mark.parametrize("block", OFFICIAL, ids=_ids(OFFICIAL))
def test_block__runs_as_written_on_the_official_data(
    block, data_dir, tmp_path, monkeypatch, capsys
):
    assert OFFICIAL_DATA_PLACEHOLDER in block.code, f"{block.name} names no official data"
    _offline(monkeypatch, tmp_path)
    real = Block(
        block.page,
        block.line,
        block.language,
        block.code.replace(OFFICIAL_DATA_PLACEHOLDER, str(data_dir)),
        block.directive,
    )
    _run(real, monkeypatch, capsys)


def test_blocks__each_names_its_language_and_a_known_marker():
    for block in all_blocks():
        known = block.language in COMMAND_LANGUAGES or block.language in EXAMPLE_LANGUAGES
        assert known, f"{block.name}: fence language {block.language!r} (bash, python, json...)"
        assert block.kind in KINDS, f"{block.name}: unknown marker {block.directive!r}"
        if block.language in EXAMPLE_LANGUAGES:
            assert not block.directive, f"{block.name}: a {block.language} block is not run"


def test_blocks__not_run_says_what_the_block_needs():
    for block in command_blocks("not-run"):
        assert re.match(r"(needs|takes) \S", block.argument), (
            f"{block.name}: `not-run: needs ...` (an API key, a GPU...) or `takes ...` (how long)"
        )


def test_blocks__tested_by_names_a_test_that_runs_each_program():
    blocks = command_blocks("tested-by")
    assert blocks
    for block in blocks:
        path, _, test = block.argument.partition("::")
        source = REPO / path
        assert source.is_file(), f"{block.name}: {path} does not exist"
        text = source.read_text(encoding="utf-8")
        if not test:  # a CI script: it runs each command of the block as written
            script = " ".join(text.replace("python -m pip", "pip").replace(" --quiet", "").split())
            for command in commands_of(block.code):
                assert command.text in script, f"{block.name}: {path} does not run {command.text}"
            continue
        assert re.search(rf"^(async )?def {re.escape(test)}\(", text, re.M), (
            f"{block.name}: no test {test} in {path}"
        )
        if COMMAND_LANGUAGES[block.language] == "bash":
            for command in commands_of(block.code):
                program = program_of(command)
                assert re.search(rf"\b{re.escape(program)}\b", text), (
                    f"{block.name}: {path} never mentions {program}"
                )


PYTHON = [block for block in all_blocks() if block.language == "python"]


@pytest.mark.parametrize("block", PYTHON, ids=_ids(PYTHON))
def test_python_block__is_formatted_as_the_code_is(block):
    ruff = shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (the test extra)")
    result = subprocess.run(
        [ruff, "format", "--diff", "--stdin-filename", "snippet.py", "-"],
        input=block.code,
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, f"{block.name}:\n{result.stdout}{result.stderr}"
