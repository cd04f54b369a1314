"""Retrieval variants: which search tools the agent gets and which policy it reads.

Offline variants need nothing but the data: ``no_knowledge``, ``full_kb``,
``golden_retrieval``, ``bm25``, ``bm25_grep``, ``grep_only``. Embedding variants
(``openai_embeddings[_grep]``, ``qwen_embeddings[_grep]``) call an embedding model through
`tau_env.llm.embeddings`. The reference's reranker, shell (``terminal_use*``) and
``alltools`` variants need an LLM reranker or a shell sandbox, which tau_env does not
provide; naming one is an error that says so.

Options (``make_env(..., retrieval_options={...})``, ``--retrieval-options '<json>'``):
``top_k`` (documents per ``KB_search``, default 10), ``grep_top_k`` (10), ``case_sensitive``
(grep, false), and for embedding variants ``embedding_model``, ``embedding_api_base``,
``embedding_api_key``, ``embedding_cache`` (an SQLite path; default
``~/.cache/tau_env/embeddings.sqlite``, ``null`` for memory only).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from typing import Any, Literal

from tau_env.domain import DomainData, DomainDefinition
from tau_env.domains.banking_knowledge.retrieval.dense import QWEN_QUERY_INSTRUCTION, DenseIndex
from tau_env.domains.banking_knowledge.retrieval.knowledge import KnowledgeBase
from tau_env.domains.banking_knowledge.retrieval.policy import (
    GOLDEN_POLICY_PLACEHOLDER,
    full_kb_policy,
    golden_policy,
    standard_policy,
)
from tau_env.domains.banking_knowledge.retrieval.search_tools import (
    Ranker,
    bm25_ranker,
    grep_tool,
    kb_search_tool,
)
from tau_env.errors import InvalidOption
from tau_env.tasks.model import Task
from tau_env.tools import ToolSet

__all__ = [
    "DEFAULT_VARIANT",
    "OFFLINE_VARIANTS",
    "UNSUPPORTED_VARIANTS",
    "VARIANTS",
    "Variant",
    "configure",
]

Search = Literal["bm25", "openai", "qwen"]
Prompt = Literal["standard", "full_kb", "golden"]


@dataclass(frozen=True)
class Variant:
    """One retrieval configuration.

    Attributes:
        name: The reference's name.
        template: Prompt file in ``prompts/``.
        search: Backend of the ``KB_search`` tool, or None for no such tool.
        grep: Whether the agent has the ``grep`` tool.
        prompt: standard (components only), full_kb (every document inlined) or golden (the
            task's required documents inlined).
    """

    name: str
    template: str
    search: Search | None = None
    grep: bool = False
    prompt: Prompt = "standard"

    @property
    def offline(self) -> bool:
        """True when the variant calls no model."""
        return self.search in (None, "bm25")


VARIANTS: Mapping[str, Variant] = {
    v.name: v
    for v in (
        Variant("no_knowledge", "no_knowledge.md"),
        Variant("full_kb", "full_kb.md", prompt="full_kb"),
        Variant("golden_retrieval", "required_docs.md", prompt="golden"),
        Variant("bm25", "classic_rag_bm25_no_grep.md", search="bm25"),
        Variant("bm25_grep", "classic_rag_bm25.md", search="bm25", grep=True),
        Variant("grep_only", "grep_only.md", grep=True),
        Variant("openai_embeddings", "classic_rag_openai_no_grep.md", search="openai"),
        Variant("openai_embeddings_grep", "classic_rag_openai.md", search="openai", grep=True),
        Variant("qwen_embeddings", "classic_rag_qwen_no_grep.md", search="qwen"),
        Variant("qwen_embeddings_grep", "classic_rag_qwen.md", search="qwen", grep=True),
    )
}
"""Every variant tau_env provides, by name."""

OFFLINE_VARIANTS = tuple(name for name, v in VARIANTS.items() if v.offline)
"""Variants that need no network: graded the same way, they differ only in what the agent reads."""

DEFAULT_VARIANT = "bm25_grep"
"""Used when none is named: the offline variant closest to the reference's default
(``alltools``: BM25 and dense search plus a shell), which needs the network and a sandbox."""

UNSUPPORTED_VARIANTS: Mapping[str, str] = {
    **{
        name: "it reranks with an LLM (gpt-5.2)"
        for name in (
            "bm25_reranker",
            "bm25_reranker_grep",
            "openai_embeddings_reranker",
            "openai_embeddings_reranker_grep",
            "qwen_embeddings_reranker",
            "qwen_embeddings_reranker_grep",
        )
    },
    **{
        name: "it runs shell commands in a sandbox (sandbox-runtime)"
        for name in ("terminal_use", "terminal_use_write", "alltools", "alltools-qwen", "AllTools")
    },
}
"""The reference's variants tau_env does not provide, and why."""

_EMBEDDING_MODELS = {
    "openai": "text-embedding-3-large",
    "qwen": "openrouter/qwen/qwen3-embedding-8b",
}
_OPTIONS = {
    "top_k": int,
    "grep_top_k": int,
    "case_sensitive": bool,
    "embedding_model": str,
    "embedding_api_base": str,
    "embedding_api_key": str,
    "embedding_cache": str,
}


def check_options(options: Mapping[str, Any]) -> None:
    """Refuse unknown options and values of the wrong type.

    Raises:
        InvalidOption: The message names the option.
    """
    for key, value in options.items():
        kind = _OPTIONS.get(key)
        if kind is None:
            raise InvalidOption(f"unknown retrieval option {key!r}; known: {', '.join(_OPTIONS)}")
        if key == "embedding_cache" and value is None:
            continue
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise InvalidOption(
                f"retrieval option {key!r} must be {kind.__name__}, actually: {value!r}"
            )
        if isinstance(value, int) and not isinstance(value, bool) and value < 1:
            raise InvalidOption(f"retrieval option {key!r} must be >= 1, actually: {value}")


def configure(
    definition: DomainDefinition, data: DomainData, name: str, options: Mapping[str, Any]
) -> tuple[DomainDefinition, DomainData]:
    """The definition and data of one variant: retrieval tools first, then the 14 base tools.

    Raises:
        InvalidOption: Unknown variant or option, or a variant tau_env does not provide.
    """
    variant = VARIANTS.get(name)
    if variant is None:
        why = UNSUPPORTED_VARIANTS.get(name)
        if why is not None:
            raise InvalidOption(f"retrieval variant {name!r} is not provided by tau_env: {why}")
        raise InvalidOption(f"unknown retrieval variant {name!r}; available: {', '.join(VARIANTS)}")
    check_options(options)
    knowledge: KnowledgeBase = data.extras["knowledge_base"]
    prompts: Mapping[str, str] = data.extras["prompts"]
    search_tools: list[Callable[..., str]] = []
    if variant.search is not None:
        rank = _ranker(variant.search, knowledge, options)
        search_tools.append(kb_search_tool(rank, options.get("top_k", 10)))
    if variant.grep:
        search_tools.append(
            grep_tool(
                knowledge, options.get("grep_top_k", 10), options.get("case_sensitive", False)
            )
        )
    base = definition.toolbox
    agent_tools = ToolSet("agent", [*search_tools, *(spec.function for spec in base.agent_tools)])
    toolbox = dataclasses.replace(base, agent_tools=agent_tools)
    policy: str
    task_policy: Callable[[Task], str] | None = None
    if variant.prompt == "full_kb":
        policy = full_kb_policy(prompts, variant.template, knowledge)
    elif variant.prompt == "golden":
        standard_policy(prompts, variant.template)  # fail now, not at the first reset
        policy = GOLDEN_POLICY_PLACEHOLDER
        required: Mapping[str, tuple[str, ...]] = data.extras["required_documents"]
        task_policy = partial(_golden_for, prompts, variant.template, knowledge, required)
    else:
        policy = standard_policy(prompts, variant.template)
    variant_data = dataclasses.replace(data, policy=policy, task_policy=task_policy)
    return dataclasses.replace(definition, toolbox=toolbox), variant_data


def _golden_for(
    prompts: Mapping[str, str],
    template: str,
    knowledge: KnowledgeBase,
    required: Mapping[str, tuple[str, ...]],
    task: Task,
) -> str:
    return golden_policy(prompts, template, knowledge, required.get(task.id, ()))


def _ranker(search: Search, knowledge: KnowledgeBase, options: Mapping[str, Any]) -> Ranker:
    if search == "bm25":
        return bm25_ranker(knowledge)
    default_cache = str(Path("~/.cache/tau_env/embeddings.sqlite").expanduser())
    index = _dense_index(
        knowledge,
        options.get("embedding_model", _EMBEDDING_MODELS[search]),
        options.get("embedding_api_base"),
        options.get("embedding_api_key"),
        options.get("embedding_cache", default_cache),
        QWEN_QUERY_INSTRUCTION if search == "qwen" else None,
    )
    return index.rank


@cache
def _dense_index(
    knowledge: KnowledgeBase,
    model: str,
    api_base: str | None,
    api_key: str | None,
    cache_path: str | None,
    instruction: str | None,
) -> DenseIndex:
    """One embedded knowledge base per (knowledge base, model, endpoint) and process."""
    from tau_env.llm.embeddings import EmbeddingCache, EmbeddingClient, EmbeddingConfig

    params = {"encoding_format": "float"} if model.startswith("openrouter/") else {}
    config = EmbeddingConfig(model, api_base=api_base, api_key=api_key, params=params)
    store = EmbeddingCache(cache_path) if cache_path else None
    client = EmbeddingClient(config, cache=store)
    client.check_access()  # a missing key: one line naming its variable, before any call
    return DenseIndex.build(knowledge, client, instruction)
