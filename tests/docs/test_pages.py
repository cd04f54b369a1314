"""What the pages of docs/ say, checked against the code; the site's table of contents."""

from __future__ import annotations

import os
import re

import tau_env
from tau_env.env.conversation import SideView
from tau_env.messages import AssistantMessage, ToolMessage, UserMessage
from tests.docs.blocks import PAGES, REPO, blocks_of

DOCS = REPO / "docs"


def _text(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def test_getting_started__view_returns_the_side_view_it_describes():
    assert "`env.unwrapped.view(side)` returns that\nside's `SideView`" in _text(
        "getting-started.md"
    )
    env = tau_env.make_env("mock", task_id="complete_task")
    env.reset(seed=0)
    view = env.unwrapped.view("user")
    assert isinstance(view, SideView)
    assert view.history and all(
        isinstance(message, AssistantMessage | UserMessage | ToolMessage)
        for message in view.history
    )
    assert view.inbox == view.history  # the greeting arrived; the user has not acted yet


def test_users_and_modes__gymnasium_snippet_runs_offline_without_any_key(monkeypatch):
    # Issue 42: the snippet ended on the LLM-user env, so running it needed an API key.
    page = DOCS / "users-and-modes.md"
    test = "test_users_and_modes__gymnasium_snippet_runs_offline_without_any_key"
    (block,) = [block for block in blocks_of(page) if block.argument.endswith(f"::{test}")]
    assert 'gymnasium.make("tau_env/Mock-v0")' in block.code
    for name in list(os.environ):
        if name.endswith(("_API_KEY", "_API_BASE", "_BASE_URL")):
            monkeypatch.delenv(name)
    namespace: dict[str, object] = {}
    exec(compile(block.code, block.name, "exec"), namespace)
    env = namespace["env"]
    assert env.spec.id == "tau_env/Mock-v0"
    assert "messages" in namespace["observation"]


def _nav_pages() -> list[str]:
    """The pages mkdocs.yml's nav lists (read as text: PyYAML comes with the docs extra)."""
    text = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    nav = text.split("\nnav:\n", 1)[1]
    nav = nav[: re.search(r"^\S", nav, re.M).start()]
    return re.findall(r'^\s+- (?:(?:"[^"\n]*"|[^:\n]+): )?(\S+\.md)\s*$', nav, re.M)


def test_nav__lists_every_page_once_and_only_pages_that_exist():
    listed = _nav_pages()
    pages = sorted(str(path.relative_to(DOCS)) for path in DOCS.glob("**/*.md"))
    assert len(listed) == len(set(listed)), "a page is listed twice in mkdocs.yml's nav"
    assert sorted(listed) == pages, (
        f"add to mkdocs.yml's nav: {sorted(set(pages) - set(listed))}; "
        f"listed but missing: {sorted(set(listed) - set(pages))}"
    )


_REPOSITORY_PATH = re.compile(
    r"`((?:tau_env|domains|wrappers|baselines|benchmarks|tests|docs|environments|\.ci)/[^`\s]*)`"
)


def test_pages__repository_paths_they_name_exist():
    # Issue 55: the README named a design file the repository does not have.
    for page in PAGES:
        for path in _REPOSITORY_PATH.findall(page.read_text(encoding="utf-8")):
            path = path.split("::", 1)[0]
            if any(mark in path for mark in "<*{"):  # a pattern: domains/<name>/README.md
                continue
            if not (path.endswith("/") or "." in path.rsplit("/", 1)[-1]):
                continue  # a name such as the metric tau_env/judge_failed, not a file
            assert (REPO / path).exists(), f"{page.relative_to(REPO)} names {path}"
