"""`EmbeddingClient` against the fake server's ``/v1/embeddings``: order, batches, caches."""

import json
import socket
import urllib.request

import numpy as np
import pytest

from tau_env.errors import InfrastructureError
from tau_env.llm import RetryPolicy
from tau_env.llm.embeddings import EmbeddingCache, EmbeddingClient, EmbeddingConfig
from tau_env.testing.fake_openai import EMBEDDING_DIMENSIONS, fake_embedding


def _client(server, **options):
    config = EmbeddingConfig("openai/fake-embedding", api_base=server.base_url, api_key="sk-fake")
    return EmbeddingClient(config, **options)


def test_fake_server__embeddings_route_answers_deterministic_vectors(server):
    body = json.dumps({"model": "fake", "input": ["open an account", "close an account"]})
    request = urllib.request.Request(
        server.base_url + "/embeddings",
        data=body.encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        reply = json.loads(response.read())
    vectors = [item["embedding"] for item in reply["data"]]
    assert vectors == [fake_embedding("open an account"), fake_embedding("close an account")]
    assert len(vectors[0]) == EMBEDDING_DIMENSIONS
    assert server.embedding_requests[0]["input"] == ["open an account", "close an account"]
    assert server.requests == []  # chat requests are counted apart


def test_fake_embedding__texts_sharing_words_are_closer():
    def cosine(a, b):
        a, b = np.asarray(fake_embedding(a)), np.asarray(fake_embedding(b))
        return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))

    assert cosine("annual fee waiver", "waiver of the annual fee") > cosine(
        "annual fee waiver", "lost debit card"
    )


def test_embed__one_vector_per_text_in_order(server):
    texts = ["b", "a", "c a b"]
    vectors = _client(server).embed(texts)
    assert vectors.shape == (3, EMBEDDING_DIMENSIONS)
    assert vectors.tolist() == [fake_embedding(t) for t in texts]


def test_embed__batches_and_sends_each_distinct_text_once(server):
    client = _client(server, batch_size=2)
    client.embed(["x", "y", "x", "z", "w"])
    assert [len(r["input"]) for r in server.embedding_requests] == [2, 2]
    assert client.calls == 2


def test_embed__memory_cache_answers_repeated_texts(server):
    client = _client(server)
    first = client.embed(["same text"])
    second = client.embed(["same text"])
    assert np.array_equal(first, second)
    assert len(server.embedding_requests) == 1


def test_embed__sqlite_cache_is_shared_by_clients_and_keyed_by_model(server, tmp_path):
    store = tmp_path / "vectors.sqlite"
    _client(server, cache=EmbeddingCache(store)).embed(["one", "two"])
    again = _client(server, cache=EmbeddingCache(store)).embed(["two", "one"])
    assert again.tolist() == [fake_embedding("two"), fake_embedding("one")]
    assert len(server.embedding_requests) == 1
    assert len(EmbeddingCache(store)) == 2
    other = EmbeddingConfig("openai/other", api_base=server.base_url, api_key="sk-fake")
    EmbeddingClient(other, cache=EmbeddingCache(store)).embed(["one"])
    assert len(server.embedding_requests) == 2


def test_embed__unreachable_endpoint_is_an_infrastructure_error_after_retries():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # free, and nothing listens once closed
    config = EmbeddingConfig(
        "openai/fake", api_base=f"http://127.0.0.1:{port}/v1", api_key="sk-fake", timeout=5
    )
    client = EmbeddingClient(config, retry=RetryPolicy(max_retries=1, initial_delay=0.01))
    with pytest.raises(InfrastructureError, match="after 2 attempt") as failure:
        client.embed(["text"])
    assert failure.value.transient


def test_config_and_arguments__are_checked():
    with pytest.raises(ValueError, match="model"):
        EmbeddingConfig("  ")
    with pytest.raises(ValueError, match="batch_size"):
        EmbeddingClient(EmbeddingConfig("m"), batch_size=0)
    with pytest.raises(ValueError, match="nothing to embed"):
        EmbeddingClient(EmbeddingConfig("m")).embed([])
