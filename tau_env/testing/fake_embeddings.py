"""Deterministic embeddings for the fake OpenAI-compatible server's ``/v1/embeddings`` route.

Vectors are word counts hashed into a few slots: texts sharing words point in similar
directions, so dense retrieval over them ranks overlapping documents first. That is enough to
run the embedding retrieval variants end to end offline; it says nothing about a real model.
"""

from __future__ import annotations

import hashlib
from typing import Any

__all__ = ["EMBEDDING_DIMENSIONS", "embedding_body", "fake_embedding"]

EMBEDDING_DIMENSIONS = 64
"""Length of the fake server's embedding vectors."""


def fake_embedding(text: str) -> list[float]:
    """A deterministic vector for `text`: word counts hashed into `EMBEDDING_DIMENSIONS` slots."""
    vector = [0.0] * EMBEDDING_DIMENSIONS
    for word in text.lower().split():
        digest = hashlib.sha256(word.encode()).digest()
        vector[digest[0] % EMBEDDING_DIMENSIONS] += 1.0 if digest[1] % 2 else -1.0
    return vector


def embedding_body(body: dict[str, Any]) -> dict[str, Any]:
    """An OpenAI ``/v1/embeddings`` response for a request body (``input`` text or list)."""
    inputs = body.get("input") or []
    texts = [inputs] if isinstance(inputs, str) else [str(text) for text in inputs]
    tokens = sum(len(text.split()) for text in texts)
    return {
        "object": "list",
        "data": [
            {"object": "embedding", "index": i, "embedding": fake_embedding(text)}
            for i, text in enumerate(texts)
        ],
        "model": str(body.get("model", "fake")),
        "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
    }
