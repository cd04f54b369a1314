"""The agent's retrieval tools, built per variant over a shared index.

Each builder returns a fresh `@tool` function closing over an immutable index, so the tool
is a plain function like every other, and one index serves every episode of the process.
Names, descriptions and output layout are the reference's.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from tau_env.domains.banking_knowledge.data_model import BankingDB
from tau_env.domains.banking_knowledge.retrieval.formatting import format_results, timing_suffix
from tau_env.domains.banking_knowledge.retrieval.grep import grep_documents
from tau_env.domains.banking_knowledge.retrieval.knowledge import Document, KnowledgeBase
from tau_env.tools import tool

__all__ = ["Ranker", "bm25_ranker", "grep_tool", "kb_search_tool"]

Ranker = Callable[[str, int], tuple[list[tuple[Document, float]], float]]
"""(query, top_k) -> (ranked documents, milliseconds spent preparing the query)."""


def bm25_ranker(knowledge: KnowledgeBase) -> Ranker:
    """Rank with the knowledge base's BM25 index (built now, once per process)."""
    documents = knowledge.documents
    knowledge.bm25  # noqa: B018  (built here, as the reference builds it with the environment)

    def rank(query: str, top_k: int) -> tuple[list[tuple[Document, float]], float]:
        found = knowledge.bm25.top(query, top_k)
        return [(documents[i], score) for i, score in found], 0.0

    return rank


def _search(rank: Ranker, query: str, top_k: int) -> str:
    """Rank, format, and add the reference's timing line (wall-clock milliseconds)."""
    started = time.perf_counter()
    results, preparing_ms = rank(query, top_k)
    retrieval_ms = (time.perf_counter() - started) * 1000 - preparing_ms
    # The reference times its (here empty) post-processing stage too; it always shows.
    post_started = time.perf_counter()
    reranking_ms = (time.perf_counter() - post_started) * 1000
    total_ms = preparing_ms + retrieval_ms + reranking_ms
    text = format_results(results) if results else "No relevant documents found."
    return text + timing_suffix(retrieval_ms, reranking_ms, total_ms)


def kb_search_tool(rank: Ranker, top_k: int = 10) -> Callable[..., str]:
    """``KB_search(query)``: the `top_k` best documents for a query, with their content."""

    @tool(kind="read", slow=True)
    def KB_search(db: BankingDB, query: str) -> str:
        """Search the knowledge base for relevant documents.

        Args:
            query: The search query to find relevant documents

        Returns:
            Relevant document excerpts matching the query
        """
        return _search(rank, query, top_k)

    return KB_search


def grep_tool(
    knowledge: KnowledgeBase, top_k: int = 10, case_sensitive: bool = False
) -> Callable[..., str]:
    """``grep(pattern)``: documents matching a regex, most matches first."""

    @tool(kind="read", slow=True)
    def grep(db: BankingDB, pattern: str) -> str:
        """Search for a regex pattern in all knowledge base documents.

        Returns documents ranked by number of matches, with full content.

        Args:
            pattern: The regex pattern to search for (e.g., 'credit.*card', 'fee|charge')

        Returns:
            Matching documents ranked by relevance (match count)
        """
        found = grep_documents(knowledge, pattern, top_k=top_k, case_sensitive=case_sensitive)
        if not found:
            return f"No matches found for pattern: {pattern}"
        return format_results(found)

    return grep
