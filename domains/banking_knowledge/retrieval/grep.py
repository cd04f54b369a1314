"""Regex search over the documents, ranked by match count (the reference's ``grep``)."""

from __future__ import annotations

import re

from tau_env.domains.banking_knowledge.retrieval.knowledge import Document, KnowledgeBase

__all__ = ["grep_documents"]


def grep_documents(
    knowledge: KnowledgeBase, pattern: str, *, top_k: int = 10, case_sensitive: bool = False
) -> list[tuple[Document, float]]:
    """Documents whose content matches `pattern`, most matches first, at most `top_k`.

    Python ``re`` semantics; a pattern that does not compile is searched literally. The score
    is the number of matches (empty matches count, as in the reference); ties keep document
    order. A blank pattern finds nothing.
    """
    if not pattern.strip():
        return []
    flags = 0 if case_sensitive else re.IGNORECASE
    try:
        compiled = re.compile(pattern, flags)
    except re.error:
        compiled = re.compile(re.escape(pattern), flags)
    found = []
    for doc in knowledge.documents:
        count = len(compiled.findall(doc.content))
        if count:
            found.append((doc, float(count)))
    found.sort(key=lambda item: item[1], reverse=True)
    return found[:top_k]
