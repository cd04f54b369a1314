"""Retrieval variants: search results, output layout and policies equal the reference's.

``reference_retrieval.json`` was recorded with the reference's pipelines over the official
knowledge base in document-id order (the order this port uses; the reference uses the file
system's): BM25 and grep rankings with scores, digests of ``KB_search`` outputs with the
timing suffix masked, and digests of every variant's policy.
"""

import hashlib
import json
import re
from pathlib import Path

import pytest

from tau_env.domain import load_domain
from tau_env.domains.banking_knowledge.retrieval.grep import grep_documents
from tau_env.domains.banking_knowledge.retrieval.variants import OFFLINE_VARIANTS
from tau_env.errors import InvalidOption
from tests.domains.banking_knowledge.conftest import dense_options

REFERENCE = json.loads((Path(__file__).parent / "reference_retrieval.json").read_text())
TIMING = re.compile(r"\n\n\[Timing: retrieval=\d+ms, reranking=\d+ms, total=\d+ms\]$")


@pytest.fixture(scope="module")
def knowledge(bank):
    return bank.data.extras["knowledge_base"]


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_bm25__rankings_and_scores_equal_the_reference(knowledge):
    for query, expected in REFERENCE["bm25"].items():
        found = [[knowledge.documents[i].id, score] for i, score in knowledge.bm25.top(query, 10)]
        assert found == expected, query


def test_grep__rankings_equal_the_reference(knowledge):
    for pattern, expected in REFERENCE["grep"].items():
        found = [[doc.id, score] for doc, score in grep_documents(knowledge, pattern)]
        assert found == expected, pattern


def test_kb_search__output_equals_the_reference_but_for_the_timing(bank):
    world = bank.new_world()
    for query, expected in REFERENCE["kb_search_sha256"].items():
        output = world.call_tool("agent", "KB_search", {"query": query}).content
        assert TIMING.search(output), query
        assert _sha(TIMING.sub("\n\n[Timing]", output)) == expected, query


def test_kb_search__layout_of_one_result(bank, knowledge):
    output = bank.new_world().call_tool("agent", "KB_search", {"query": "Bluest"}).content
    first = knowledge.bm25.top("Bluest", 1)[0]
    doc = knowledge.documents[first[0]]
    entry = (
        f"1. {doc.title}\n   ID: {doc.id}\n   Score: {first[1]:.4f}\n   Content: {doc.content}\n"
    )
    assert output.startswith(entry + "\n2. ")
    empty = bank.new_world().call_tool("agent", "KB_search", {"query": "  "}).content
    assert TIMING.sub("", empty) == "No relevant documents found."


def test_grep__escapes_bad_patterns_and_says_when_nothing_matches(bank):
    world = bank.new_world()
    assert world.call_tool("agent", "grep", {"pattern": "zzzq"}).content == (
        "No matches found for pattern: zzzq"
    )
    literal = world.call_tool("agent", "grep", {"pattern": "fee("}).content
    assert literal.startswith("1. ") and "[Timing" not in literal


@pytest.mark.parametrize("variant", [*OFFLINE_VARIANTS])
def test_policy__equals_the_reference(data_dir, variant):
    domain = load_domain("banking_knowledge", data_dir, retrieval=variant)
    if variant == "golden_retrieval":
        assert domain.policy == "(Policy is task-specific - see 'policy' field in each simulation)"
        for task in domain.tasks:
            assert _sha(domain.policy_for(task)) == REFERENCE["golden_policy_sha256"][task.id]
        return
    assert len(domain.policy) == REFERENCE["policy_length"][variant]
    assert _sha(domain.policy) == REFERENCE["policy_sha256"][variant]


@pytest.mark.parametrize(
    ("variant", "tools"),
    [
        ("no_knowledge", []),
        ("full_kb", []),
        ("golden_retrieval", []),
        ("bm25", ["KB_search"]),
        ("bm25_grep", ["KB_search", "grep"]),
        ("grep_only", ["grep"]),
    ],
)
def test_variants__search_tools_come_first_then_the_14_base_tools(data_dir, variant, tools):
    names = load_domain("banking_knowledge", data_dir, retrieval=variant).toolbox.tools("agent")
    assert list(names.names[: len(tools)]) == tools
    assert len(names) == len(tools) + 14
    assert names.names[len(tools)] == "transfer_to_human_agents"


def test_variants__share_parsed_data_and_the_bm25_index(data_dir):
    bm25 = load_domain("banking_knowledge", data_dir, retrieval="bm25")
    both = load_domain("banking_knowledge", data_dir, retrieval="bm25_grep")
    assert bm25.data.agent_snapshot is both.data.agent_snapshot
    knowledge = bm25.data.extras["knowledge_base"]
    assert knowledge is both.data.extras["knowledge_base"]
    assert knowledge.bm25 is both.data.extras["knowledge_base"].bm25
    assert load_domain("banking_knowledge", data_dir) is both  # bm25_grep is the default


def test_variants__unsupported_and_unknown_names_say_why(data_dir):
    with pytest.raises(InvalidOption, match="sandbox"):
        load_domain("banking_knowledge", data_dir, retrieval="alltools")
    with pytest.raises(InvalidOption, match="reranks with an LLM"):
        load_domain("banking_knowledge", data_dir, retrieval="bm25_reranker")
    with pytest.raises(InvalidOption, match="available: no_knowledge"):
        load_domain("banking_knowledge", data_dir, retrieval="nope")
    with pytest.raises(InvalidOption, match="no retrieval variants"):
        load_domain("mock", retrieval="bm25")


def test_options__top_k_and_grep_settings_apply_and_bad_ones_are_refused(data_dir):
    domain = load_domain(
        "banking_knowledge",
        data_dir,
        retrieval="bm25_grep",
        retrieval_options={"top_k": 3, "grep_top_k": 2, "case_sensitive": True},
    )
    world = domain.new_world()
    found = world.call_tool("agent", "KB_search", {"query": "checking account fee"}).content
    assert found.count("\n   ID: ") == 3
    grep = world.call_tool("agent", "grep", {"pattern": "Account"}).content
    assert grep.count("\n   ID: ") == 2
    lower = world.call_tool("agent", "grep", {"pattern": "BLUEST ACCOUNT"}).content
    assert lower.startswith("No matches found")
    with pytest.raises(InvalidOption, match="unknown retrieval option 'k'"):
        load_domain("banking_knowledge", data_dir, retrieval="bm25", retrieval_options={"k": 3})
    with pytest.raises(InvalidOption, match="'top_k' must be int"):
        load_domain(
            "banking_knowledge", data_dir, retrieval="bm25", retrieval_options={"top_k": "3"}
        )


@pytest.mark.parametrize(
    "variant",
    ["openai_embeddings", "openai_embeddings_grep", "qwen_embeddings", "qwen_embeddings_grep"],
)
def test_embedding_variants__policy_tools_and_query_instruction(data_dir, embeddings, variant):
    domain = load_domain(
        "banking_knowledge",
        data_dir,
        retrieval=variant,
        retrieval_options=dense_options(embeddings),
    )
    assert _sha(domain.policy) == REFERENCE["policy_sha256"][variant]
    names = domain.toolbox.tools("agent").names
    assert names[0] == "KB_search" and (names[1] == "grep") == variant.endswith("_grep")
    output = domain.new_world().call_tool("agent", "KB_search", {"query": "close my account"})
    assert output.content.count("\n   ID: ") == 10 and TIMING.search(output.content)
    query = embeddings.embedding_requests[-1]["input"]
    if variant.startswith("qwen"):
        assert query == [
            "Instruct: Given a web search query, retrieve relevant passages that answer the "
            "query\nQuery:close my account"
        ]
    else:
        assert query == ["close my account"]
