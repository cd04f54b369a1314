"""The code blocks of the README and of docs/, with the comment that says how each is tested.

A fenced block may be preceded (on the line before its fence) by one comment:

- none: run as written, offline (`tests/docs/test_blocks.py`);
- ``<!-- docs-test: official-data -->``: run with ``/path/to/tau2-data`` replaced by the data;
- ``<!-- docs-test: tested-by PATH[::TEST] -->``: a named test, or a CI script, runs it;
- ``<!-- docs-test: not-run: REASON -->``: not runnable offline, for the reason given.

``docs/contributing.md`` documents the same rules for writers.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PAGES = (REPO / "README.md", *sorted((REPO / "docs").glob("**/*.md")))
"""Every page whose blocks are checked: the README and the pages of docs/."""

COMMAND_LANGUAGES = {"bash": "bash", "sh": "bash", "python": "python"}
"""Fence languages that hold commands or code (run, or marked); the value is how to run it."""

EXAMPLE_LANGUAGES = frozenset({"json", "jsonl", "toml", "text", "yaml"})
"""Fence languages that show a format or an output: read, not run."""

OFFICIAL_DATA_PLACEHOLDER = "/path/to/tau2-data"
"""How the pages name the official data folder; replaced by the real one in official-data runs."""

_FENCE = re.compile(r"^(?P<indent>\s*)```(?P<language>[\w-]*)\s*$")
_MARKER = re.compile(r"^\s*<!--\s*docs-test:\s*(?P<directive>.*?)\s*-->\s*$")
_EXIT = re.compile(r"#.*\(exit (\d+)\)")


@dataclass(frozen=True)
class Block:
    """One fenced block of a page."""

    page: Path
    line: int  # of the opening fence, 1-based
    language: str
    code: str
    directive: str  # the marker's text after "docs-test:", "" when the block has none

    @property
    def name(self) -> str:
        """``README.md:27``, ``docs/cli.md:40``: where a writer finds the block."""
        return f"{self.page.relative_to(REPO)}:{self.line}"

    @property
    def kind(self) -> str:
        """``run``, ``official-data``, ``tested-by``, ``not-run`` or the unknown directive."""
        if not self.directive:
            return "run"
        return re.split(r"[\s:]", self.directive, maxsplit=1)[0]

    @property
    def argument(self) -> str:
        """What follows the kind: the test of ``tested-by``, the reason of ``not-run``."""
        return self.directive[len(self.kind) :].lstrip(" :").strip()


def blocks_of(page: Path) -> list[Block]:
    """The fenced blocks of one page, in order."""
    lines = page.read_text(encoding="utf-8").splitlines()
    blocks = []
    index = 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        if opening is None:
            index += 1
            continue
        end = index + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        indent = len(opening["indent"])
        code = "\n".join(line[indent:] for line in lines[index + 1 : end]) + "\n"
        previous = next((line for line in reversed(lines[:index]) if line.strip()), "")
        marker = _MARKER.match(previous)
        directive = marker["directive"] if marker else ""
        blocks.append(Block(page, index + 1, opening["language"], code, directive))
        index = end + 1
    return blocks


def all_blocks() -> list[Block]:
    """Every fenced block of every page."""
    return [block for page in PAGES for block in blocks_of(page)]


def command_blocks(kind: str) -> list[Block]:
    """The command and code blocks of one kind (``run``, ``official-data``...)."""
    return [
        block
        for block in all_blocks()
        if block.language in COMMAND_LANGUAGES and block.kind == kind
    ]


@dataclass(frozen=True)
class Command:
    """One shell command of a bash block: its words and the exit code its comment states."""

    words: list[str]
    exit_code: int
    text: str


def commands_of(code: str) -> list[Command]:
    """The commands of a bash block: continuation lines joined, comments dropped."""
    commands = []
    for line in code.replace("\\\n", " ").splitlines():
        words = shlex.split(line, comments=True)
        if not words:
            continue
        stated = _EXIT.search(line)
        text = line.split(" #", 1)[0].strip()
        commands.append(Command(words, int(stated[1]) if stated else 0, " ".join(text.split())))
    return commands


def program_of(command: Command) -> str:
    """The name a test of the command must mention: ``run`` for ``tau-env run``, the module
    or script for ``python -m pkg.module`` / ``python path/script.py``, else the program."""
    words = command.words
    if words[0] == "tau-env" and len(words) > 1:
        return words[1]
    if words[:2] == ["python", "-m"] and len(words) > 2:
        return words[2].rsplit(".", 1)[-1]
    if words[0] == "python" and len(words) > 1:
        return Path(words[1]).stem
    return words[0]
