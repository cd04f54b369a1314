"""The bank's knowledge base: documents the agent searches (or reads whole in its prompt).

Documents are kept in id order. The reference keeps the order in which the file system lists
the folder, which is not the same from one machine to the next; it decides the full-KB
prompt's order and which of two equally scored documents ranks first, so a fixed order is
the only reproducible choice (see the domain README, "What differs").
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tau_env.errors import DataError

if TYPE_CHECKING:
    from tau_env.domains.banking_knowledge.retrieval.bm25 import BM25Index

__all__ = ["Document", "KnowledgeBase", "load_documents"]


class Document(BaseModel):
    """One knowledge base article. Seen by: the agent (through search, or in its prompt)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    id: str = Field(description="Unique id, e.g. doc_checking_accounts_001.")
    title: str = Field(description="Title; several documents may share one.")
    content: str = Field(description="Markdown body (the only part searches look at).")


@dataclass(frozen=True, eq=False)
class KnowledgeBase:
    """The documents of one data source, shared read-only by every episode of the process.

    Attributes:
        documents: Every document, in id order.
    """

    documents: tuple[Document, ...]

    @classmethod
    def of(cls, documents: Iterable[Document], *, source: str) -> KnowledgeBase:
        """A knowledge base of these documents, sorted by id.

        Raises:
            DataError: Two documents have the same id, or there is none.
        """
        ordered = tuple(sorted(documents, key=lambda doc: doc.id))
        for first, second in itertools.pairwise(ordered):
            if first.id == second.id:
                raise DataError(f"{source}: two documents have the id {first.id!r}")
        if not ordered:
            raise DataError(f"{source}: the knowledge base has no document")
        return cls(ordered)

    @cached_property
    def by_id(self) -> Mapping[str, Document]:
        """Documents by id."""
        return {doc.id: doc for doc in self.documents}

    @cached_property
    def by_title(self) -> Mapping[str, Document]:
        """Documents by title; of two with one title, the later in order wins (reference)."""
        return {doc.title: doc for doc in self.documents}

    @cached_property
    def contents_utf8(self) -> tuple[bytes, ...]:
        """Each document's content as UTF-8, in order: the text ``grep`` searches (RE2's)."""
        return tuple(doc.content.encode("utf-8") for doc in self.documents)

    @cached_property
    def bm25(self) -> BM25Index:
        """The BM25 index over the documents' content, built on first use, once per process."""
        from tau_env.domains.banking_knowledge.retrieval.bm25 import BM25Index

        return BM25Index([doc.content for doc in self.documents])


def load_documents(folder: Path) -> KnowledgeBase:
    """Every ``*.json`` document of a folder (``{"id", "title", "content"}`` each).

    Raises:
        DataError: The folder is missing, or a file is not a valid document.
    """
    if not folder.is_dir():
        raise DataError(f"{folder}: documents folder not found")
    documents = []
    for path in folder.glob("*.json"):
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            documents.append(Document.model_validate(raw))
        except (ValueError, ValidationError) as error:
            raise DataError(f"{path}: not a knowledge base document: {error}") from None
    return KnowledgeBase.of(documents, source=str(folder))
