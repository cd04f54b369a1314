"""The knowledge base being written: documents by id, and the id conventions tasks rely on."""

from __future__ import annotations

from dataclasses import dataclass, field

from tau_env.domains.banking_knowledge.generator.products import (
    CardOffer,
    CheckingProduct,
    SavingsProduct,
)

__all__ = ["Library", "product_doc"]


def product_doc(product: CheckingProduct | SavingsProduct | CardOffer, topic: str) -> str:
    """The id of one of a product's documents (``doc_card_atlas_rewards``...)."""
    area = {CheckingProduct: "checking", SavingsProduct: "savings", CardOffer: "card"}
    return f"doc_{area[type(product)]}_{product.slug}_{topic}"


@dataclass
class Library:
    """Documents in the order written (the knowledge base sorts them by id when loaded)."""

    documents: dict[str, dict[str, str]] = field(default_factory=dict)

    def add(self, doc_id: str, title: str, content: str) -> str:
        """Add a document; returns its id.

        Raises:
            ValueError: The id is taken, or the content has a backslash (the reference's
                full-KB prompt would interpret it).
        """
        if doc_id in self.documents:
            raise ValueError(f"duplicate document id {doc_id!r}")
        if "\\" in content:
            raise ValueError(f"{doc_id}: backslash in content")
        self.documents[doc_id] = {"id": doc_id, "title": title, "content": content.strip() + "\n"}
        return doc_id

    def require(self, *doc_ids: str) -> list[str]:
        """`doc_ids`, each checked to exist (tasks name only real documents)."""
        for doc_id in doc_ids:
            if doc_id not in self.documents:
                raise KeyError(f"no document {doc_id!r}")
        return list(doc_ids)
