"""BM25 as the reference computes it (rank_bm25's BM25Okapi, k1 1.5, b 0.75, epsilon 0.25).

The expected numbers were computed with ``rank_bm25.BM25Okapi`` 0.2.2 on the same corpus; the
index must reproduce them exactly (same float operations, same order), since equal scores
decide rankings.
"""

import numpy as np
import pytest

from tau_env.domains.banking_knowledge.retrieval.bm25 import BM25Index, tokenize

CORPUS = [
    "The cat sat",
    "the dog sat down",
    "the cat ate the fish",
    "a bird",
    "the the the",
    "Fee, fee. FEE",
]

EXPECTED = {
    "the cat": [
        0.883400816696688,
        0.23473496792955795,
        0.7947318366451883,
        0.0,
        0.43736942742430446,
        0.0,
    ],
    "sat": [0.6154834187456744, 0.5392538210111185, 0.0, 0.0, 0.0, 0.0],
    "fish fish": [0.0, 0.0, 2.1212783414371605, 0.0, 0.0, 0.0],
    "fee fee,": [0.0, 0.0, 0.0, 0.0, 0.0, 2.7210114850895515],
    "unknown": [0.0] * 6,
}


@pytest.fixture(scope="module")
def index():
    return BM25Index(CORPUS)


@pytest.mark.parametrize("query", sorted(EXPECTED))
def test_scores__equal_rank_bm25_bit_for_bit(index, query):
    assert index.scores(query).tolist() == EXPECTED[query]


def test_tokenize__lower_case_whitespace_split_keeps_punctuation():
    assert tokenize("Fee, FEE.\tfee\n") == ["fee,", "fee.", "fee"]


def test_idf__a_term_in_most_documents_gets_the_epsilon_floor(index):
    # "the" is in 4 of 6 documents: ln(2.5) - ln(4.5) < 0, so it scores 0.25 x mean idf.
    assert index._idf["the"] == 0.2558611150432181
    assert index._idf["cat"] == 0.5877866649021191


def test_top__best_first_ties_in_corpus_order_and_capped(index):
    assert index.top("sat", 10)[:2] == [(0, 0.6154834187456744), (1, 0.5392538210111185)]
    tied = BM25Index(["x y", "z w", "x y", "q r", "s t"]).top("x", 10)
    assert [i for i, _ in tied] == [0, 2, 1, 3, 4]
    assert tied[0][1] == tied[1][1] > 0
    assert len(index.top("the cat", 2)) == 2
    assert len(index.top("unknown", 10)) == 6  # zero scores still rank (reference retriever)


def test_top__blank_query_finds_nothing(index):
    assert index.top("", 10) == []
    assert index.top("   \n", 10) == []


def test_scores__repeated_query_terms_count_again(index):
    once, twice = index.scores("fish"), index.scores("fish fish")
    assert np.array_equal(twice, once + once)
