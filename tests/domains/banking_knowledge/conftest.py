"""Fixtures: the official bank (the domain has no built-in data yet) and one-task worlds."""

from __future__ import annotations

import pytest

from tau_env.domain import Domain, load_domain
from tau_env.messages import Side
from tau_env.state import World
from tau_env.testing.fake_openai import FakeOpenAIServer


@pytest.fixture(scope="session")
def bank(data_dir) -> Domain:
    """The official bank on the default retrieval variant (``bm25_grep``)."""
    return load_domain("banking_knowledge", data_dir)


@pytest.fixture
def world(bank):
    """A fresh world for a task: ``world("task_001")`` (the task's initial state applied)."""

    def make(task_id: str = "task_001") -> World:
        return bank.prepare(bank.task(task_id)).initial_world.fork()

    return make


def call(world: World, side: Side, tool: str, **arguments):
    """Call a tool; returns (content, error)."""
    result = world.call_tool(side, tool, arguments)
    return result.content, result.error


@pytest.fixture(scope="session")
def embeddings():
    """A fake OpenAI server answering ``/v1/embeddings`` for the whole session."""
    with FakeOpenAIServer() as server:
        yield server


def dense_options(server, cache: str | None = None) -> dict[str, object]:
    """Retrieval options pointing the embedding variants at the fake server."""
    return {
        "embedding_model": "openai/fake-embedding",
        "embedding_api_base": server.base_url,
        "embedding_api_key": "sk-fake",
        "embedding_cache": cache,
    }
