"""BM25 ranking exactly as the reference computes it (``rank_bm25.BM25Okapi``, its defaults).

Written once here rather than imported: the library scores every document for every query
term in Python, while this index keeps postings per term and updates only the documents that
contain it, which makes a query over 698 documents take well under a millisecond. The float
operations are the library's, in the same order, so scores are bit-identical and rankings
(including ties, which keep corpus order) are the same.

Okapi BM25 as ``rank_bm25`` defines it: k1 = 1.5, b = 0.75, epsilon = 0.25;
idf(t) = ln(N - n_t + 0.5) - ln(n_t + 0.5), and terms with a negative idf get
epsilon x the mean idf of all terms; a term occurring f times in a document of length |d|
adds idf(t) * f * (k1 + 1) / (f + k1 * (1 - b + b * |d| / avgdl)). Tokens are the lower-cased
text split on whitespace (punctuation stays attached; repeated query terms count again).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

__all__ = ["BM25Index", "tokenize"]

K1 = 1.5
B = 0.75
EPSILON = 0.25


def tokenize(text: str) -> list[str]:
    """Lower-case, split on whitespace."""
    return text.lower().split()


class BM25Index:
    """Postings and idf of a corpus, built once.

    Args:
        texts: The documents' texts, in corpus order (ties rank in this order).
    """

    def __init__(self, texts: Sequence[str]) -> None:
        self.size = len(texts)
        lengths = np.zeros(self.size, dtype=np.float64)
        postings: dict[str, tuple[list[int], list[int]]] = {}
        total = 0
        for index, text in enumerate(texts):
            tokens = tokenize(text)
            lengths[index] = len(tokens)
            total += len(tokens)
            counts: dict[str, int] = {}
            for token in tokens:
                counts[token] = counts.get(token, 0) + 1
            for token, count in counts.items():  # first-occurrence order, as the library
                docs, freqs = postings.setdefault(token, ([], []))
                docs.append(index)
                freqs.append(count)
        average_length = total / self.size
        # k1 * (1 - b + b * |d| / avgdl), evaluated in the library's operation order.
        self._norms: NDArray[np.float64] = K1 * (1 - B + B * lengths / average_length)
        self._idf = _idf(postings, self.size)
        self._postings = {
            token: (np.asarray(docs, dtype=np.intp), np.asarray(freqs, dtype=np.float64))
            for token, (docs, freqs) in postings.items()
        }

    def scores(self, query: str) -> NDArray[np.float64]:
        """The score of every document for `query` (zeros when no term is known)."""
        scores = np.zeros(self.size)
        for term in tokenize(query):
            found = self._postings.get(term)
            if found is None:
                continue  # the library adds idf 0 times a zero frequency: nothing
            docs, freqs = found
            scores[docs] += self._idf[term] * (freqs * (K1 + 1) / (freqs + self._norms[docs]))
        return scores

    def top(self, query: str, k: int) -> list[tuple[int, float]]:
        """The `k` best (document index, score) pairs, best first; ties keep corpus order.

        An empty or blank query finds nothing, as in the reference's retriever.
        """
        if not query or not query.strip():
            return []
        scores = self.scores(query)
        order = np.argsort(-scores, kind="stable")[: min(k, self.size)]
        return [(int(i), float(scores[i])) for i in order]


def _idf(postings: dict[str, tuple[list[int], list[int]]], size: int) -> dict[str, float]:
    idf: dict[str, float] = {}
    total = 0.0
    negative = []
    for term, (docs, _) in postings.items():  # the library sums in first-appearance order
        value = math.log(size - len(docs) + 0.5) - math.log(len(docs) + 0.5)
        idf[term] = value
        total += value
        if value < 0:
            negative.append(term)
    floor = EPSILON * (total / len(idf))
    for term in negative:
        idf[term] = floor
    return idf
