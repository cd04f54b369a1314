"""Dense retrieval: cosine similarity between embedded documents and an embedded query.

Embeddings come from `tau_env.llm.embeddings` (litellm), cached; the document matrix is built
once per process per model. Ranking follows the reference: cosine scores, then numpy's
``argsort`` reversed (so ties come in reverse document order), cut to `top_k`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from tau_env.domains.banking_knowledge.retrieval.knowledge import Document, KnowledgeBase
from tau_env.llm.embeddings import EmbeddingClient

__all__ = ["QWEN_QUERY_INSTRUCTION", "DenseIndex"]

QWEN_QUERY_INSTRUCTION = (
    "Given a web search query, retrieve relevant passages that answer the query"
)
"""The instruction the reference puts before queries (not documents) for Qwen embeddings."""


def _unit_rows(matrix: NDArray[np.float64]) -> NDArray[np.float64]:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1, norms)


@dataclass(frozen=True, eq=False)
class DenseIndex:
    r"""Embedded documents of a knowledge base, and the client that embeds queries.

    Attributes:
        documents: The documents, in knowledge base order.
        matrix: One unit-length row per document.
        client: Embeds queries (with an in-memory cache).
        query_instruction: Put before each query as ``Instruct: ...\\nQuery:<q>`` (Qwen), or
            None.
    """

    documents: tuple[Document, ...]
    matrix: NDArray[np.float64]
    client: EmbeddingClient
    query_instruction: str | None = None

    @classmethod
    def build(
        cls, knowledge: KnowledgeBase, client: EmbeddingClient, query_instruction: str | None
    ) -> DenseIndex:
        """Embed every document's content (documents are never prefixed)."""
        vectors = client.embed([doc.content for doc in knowledge.documents])
        return cls(knowledge.documents, _unit_rows(vectors), client, query_instruction)

    def rank(self, query: str, top_k: int) -> tuple[list[tuple[Document, float]], float]:
        """The `top_k` most similar documents, and the milliseconds spent embedding the query."""
        if not query.strip():
            return [], 0.0
        started = time.perf_counter()
        text = (
            f"Instruct: {self.query_instruction}\nQuery:{query}"
            if self.query_instruction
            else query
        )
        vector = self.client.embed([text])[0]
        embedding_ms = (time.perf_counter() - started) * 1000
        norm = np.linalg.norm(vector)
        scores = np.zeros(len(self.documents)) if norm == 0 else self.matrix @ (vector / norm)
        order = np.argsort(scores)[::-1][: min(top_k, len(self.documents))]
        return [(self.documents[i], float(scores[i])) for i in order], embedding_ms
