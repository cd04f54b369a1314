"""The text of search results, in the reference's layout."""

from __future__ import annotations

from collections.abc import Sequence

from tau_env.domains.banking_knowledge.retrieval.knowledge import Document

__all__ = ["format_results", "timing_suffix"]


def format_results(results: Sequence[tuple[Document, float]]) -> str:
    """One numbered entry per document: title, id, score (4 decimals), full content."""
    return "\n".join(
        f"{number}. {doc.title}\n   ID: {doc.id}\n"
        f"   Score: {score:.4f}\n   Content: {doc.content}\n"
        for number, (doc, score) in enumerate(results, 1)
    )


def timing_suffix(retrieval_ms: float, reranking_ms: float, total_ms: float) -> str:
    """``[Timing: ...]`` as the reference appends it to every knowledge base search.

    The reference measures a (tiny) positive post-processing time even without a reranker,
    so ``reranking=`` always appears.
    """
    text = f"\n\n[Timing: retrieval={retrieval_ms:.0f}ms"
    if reranking_ms > 0:
        text += f", reranking={reranking_ms:.0f}ms"
    return text + f", total={total_ms:.0f}ms]"
