"""Text embeddings through litellm: batching, retries on transient failures, and a cache.

Used by retrieval that needs dense vectors (the banking domain's embedding variants). litellm
is imported on the first call, as for completions. Vectors are cached by (model, settings,
text): in memory always, and in an SQLite file when one is given, so a knowledge base is
embedded once per machine, not once per process::

    client = EmbeddingClient(
        EmbeddingConfig("text-embedding-3-large"),
        cache=EmbeddingCache("~/.cache/tau_env/embeddings.sqlite"),
    )
    vectors = client.embed(["first text", "second text"])   # shape (2, dimensions)
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from tau_env.errors import InfrastructureError, ModelAccessError
from tau_env.llm._backend import classify_failure, litellm
from tau_env.llm.config import RetryPolicy
from tau_env.llm.failures import Provider, api_key_variable, missing_key_message
from tau_env.llm.litellm_route import NO_KEY
from tau_env.llm.prices import listed_provider
from tau_env.llm.sqlite_file import SharedSQLiteFile
from tau_env.secrets import redact

__all__ = ["EmbeddingCache", "EmbeddingClient", "EmbeddingConfig"]

_ONE_KEY_PROVIDERS = frozenset({"openai", "openrouter", "mistral", "cohere", "voyage", "gemini"})
"""Providers whose calls need exactly one environment variable, the one `api_key_variable`
names (others, such as Bedrock or Vertex, are asked of litellm)."""

_SCHEMA = "CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vector BLOB NOT NULL)"


@dataclass(frozen=True)
class EmbeddingConfig:
    """An embedding model as litellm names it, and the settings that shape its vectors.

    Attributes:
        model: litellm model string (``"text-embedding-3-large"``, ``"openai/<name>"`` for any
            OpenAI-compatible endpoint...).
        api_base: Endpoint URL (None: the provider's default).
        api_key: API key (None: litellm reads the provider's environment variable).
        timeout: Seconds before a call is abandoned (and retried).
        params: Further litellm keyword arguments (``encoding_format``, ``dimensions``...); part
            of the cache key.
    """

    model: str
    api_base: str | None = None
    api_key: str | None = None
    timeout: float | None = 120.0
    params: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.model, str) or not self.model.strip():
            raise ValueError(f"model must be a non-empty string, actually: {self.model!r}")

    def key(self, text: str) -> str:
        """The cache key of `text` under this model and these settings."""
        payload = json.dumps([self.model, dict(self.params), text], sort_keys=True, default=str)
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()


class EmbeddingCache(SharedSQLiteFile):
    """Vectors stored in SQLite, by `EmbeddingConfig.key`. Shared safely by processes.

    Args:
        path: The SQLite file (created with its folder when missing).
    """

    def __init__(self, path: str | Path) -> None:
        super().__init__(path, _SCHEMA)

    def get_many(self, keys: Sequence[str]) -> dict[str, NDArray[np.float64]]:
        """The stored vectors among `keys`."""
        found: dict[str, NDArray[np.float64]] = {}
        with self._connect() as db:
            for start in range(0, len(keys), 500):  # SQLite caps the parameters of a query
                chunk = list(keys[start : start + 500])
                marks = ",".join("?" * len(chunk))
                query = f"SELECT key, vector FROM vectors WHERE key IN ({marks})"
                for key, blob in db.execute(query, chunk):
                    found[key] = np.frombuffer(blob, dtype=np.float64)
        return found

    def put_many(self, items: Mapping[str, NDArray[np.float64]]) -> None:
        """Store vectors (the first one stored for a key wins)."""
        with self._connect() as db:
            db.executemany(
                "INSERT OR IGNORE INTO vectors (key, vector) VALUES (?, ?)",
                [(key, np.asarray(v, dtype=np.float64).tobytes()) for key, v in items.items()],
            )

    def __len__(self) -> int:
        with self._connect() as db:
            (count,) = db.execute("SELECT COUNT(*) FROM vectors").fetchone()
        return int(count)


class EmbeddingClient:
    """Embeds texts with one model; only texts not cached reach the provider.

    Args:
        config: The model and its settings.
        retry: Backoff for transient failures (429, 5xx, timeouts, connection errors).
        cache: A persistent cache (default: memory only, for the life of this client).
        batch_size: Texts per provider call.

    Raises:
        InfrastructureError: From `embed`, when the provider still fails after the retries or
            fails in a way retrying cannot fix.
    """

    def __init__(
        self,
        config: EmbeddingConfig,
        *,
        retry: RetryPolicy | None = None,
        cache: EmbeddingCache | None = None,
        batch_size: int = 128,
    ) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, actually: {batch_size}")
        self.config = config
        self.retry = retry or RetryPolicy()
        self.cache = cache
        self.batch_size = batch_size
        self.calls = 0
        self._memory: dict[str, NDArray[np.float64]] = {}
        self._lock = threading.Lock()
        self._jitter = random.Random()
        self._key: str | None = None  # a placeholder for a local server (`check_access`)

    def __repr__(self) -> str:
        return f"EmbeddingClient({self.config.model!r})"

    def check_access(self) -> None:
        """Fail now, not after retries, when no call can succeed for want of an API key.

        An OpenAI-compatible ``api_base`` (a local server) needs no key: a placeholder is
        sent, as for completions (`tau_env.llm.litellm_route.NO_KEY`).

        Raises:
            ModelAccessError: No key is set for the model's provider; the message names the
                environment variable to set.
        """
        config = self.config
        if config.api_key is not None or self._key is not None:
            return
        prefix, slash, _ = config.model.partition("/")
        provider = prefix if slash else (listed_provider(config.model) or "")
        if provider in _ONE_KEY_PROVIDERS:  # decided without importing litellm (seconds)
            variable = api_key_variable(provider)
            if os.environ.get(variable):
                return
            if config.api_base is not None and provider == "openai":
                self._key = NO_KEY
                return
            raise ModelAccessError(missing_key_message(Provider(provider, variable), config.model))
        lib = litellm()
        try:
            found = lib.validate_environment(model=config.model, api_base=config.api_base)
            provider = str(lib.get_llm_provider(config.model)[1])
        except Exception:  # an unknown provider: litellm's own call will say what is wrong
            return
        if found.get("keys_in_environment", True):
            return
        if config.api_base is not None and provider == "openai":
            self._key = NO_KEY
            return
        missing = [str(name) for name in found.get("missing_keys") or ()]
        variable = missing[0] if missing else api_key_variable(provider)
        raise ModelAccessError(missing_key_message(Provider(provider, variable), config.model))

    def embed(self, texts: Sequence[str]) -> NDArray[np.float64]:
        """One vector per text, in order: an array of shape ``(len(texts), dimensions)``."""
        if not texts:
            raise ValueError("nothing to embed")
        keys = [self.config.key(text) for text in texts]
        with self._lock:
            known = {key: self._memory[key] for key in keys if key in self._memory}
        missing = [key for key in dict.fromkeys(keys) if key not in known]
        if missing and self.cache is not None:
            stored = self.cache.get_many(missing)
            known.update(stored)
            missing = [key for key in missing if key not in stored]
        if missing:
            text_of = dict(zip(keys, texts, strict=True))
            fresh: dict[str, NDArray[np.float64]] = {}
            for start in range(0, len(missing), self.batch_size):
                batch = missing[start : start + self.batch_size]
                vectors = self._request([text_of[key] for key in batch])
                fresh.update(zip(batch, vectors, strict=True))
            if self.cache is not None:
                self.cache.put_many(fresh)
            known.update(fresh)
        with self._lock:
            self._memory.update(known)
        return np.vstack([known[key] for key in keys])

    def _request(self, texts: list[str]) -> list[NDArray[np.float64]]:
        config = self.config
        request: dict[str, Any] = {
            "model": config.model,
            "input": texts,
            "num_retries": 0,  # retries are ours (classified, with backoff)
            **dict(config.params),
        }
        for name, value in (
            ("api_base", config.api_base),
            ("api_key", config.api_key or self._key),
            ("timeout", config.timeout),
        ):
            if value is not None:
                request[name] = value
        attempt = 0
        while True:
            attempt += 1
            try:
                response = litellm().embedding(**request)
            except Exception as error:
                time.sleep(self._after_failure(error, attempt))
                continue
            self.calls += 1
            return _vectors(response, len(texts), config.model)

    def _after_failure(self, error: Exception, attempt: int) -> float:
        """The delay before retrying, or raise the classified error (as `LLMClient` does)."""
        failure = classify_failure(error)
        if failure is None:
            raise error  # not a provider failure: a bug, which must surface as itself
        model = self.config.model
        detail = redact(failure.detail, (self.config.api_key,))
        if failure.kind == "access":
            raise ModelAccessError(
                f"{model}: the provider refused the embedding call: {detail}", attempts=attempt
            ) from error
        transient = failure.kind == "transient"
        if transient and attempt <= self.retry.max_retries:
            delay = self.retry.wait(attempt, self._jitter.random(), failure.retry_after)
            if delay is not None:
                return delay
        raise InfrastructureError(
            f"{model}: embedding failed after {attempt} attempt(s): {detail}",
            attempts=attempt,
            transient=transient,
        ) from error


def _vectors(response: Any, expected: int, model: str) -> list[NDArray[np.float64]]:
    """The vectors of a litellm ``EmbeddingResponse``, in input order."""
    items = list(getattr(response, "data", None) or [])
    if len(items) != expected:
        raise InfrastructureError(
            f"{model}: asked for {expected} embeddings, received {len(items)}", transient=False
        )

    def field_of(item: Any, name: str) -> Any:
        return item[name] if isinstance(item, Mapping) else getattr(item, name)

    ordered = sorted(items, key=lambda item: int(field_of(item, "index") or 0))
    return [np.asarray(field_of(item, "embedding"), dtype=np.float64) for item in ordered]
