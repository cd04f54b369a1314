"""``grep`` on RE2: Python's counts on every pattern both engines read alike, bounded work."""

from __future__ import annotations

import random
import re

import pytest

from tau_env.domain import load_domain
from tau_env.domains.banking_knowledge.retrieval import grep
from tau_env.domains.banking_knowledge.retrieval.grep import MAX_PATTERN, grep_documents
from tau_env.errors import ToolError


@pytest.fixture(scope="module")
def builtin_knowledge():
    return load_domain("banking_knowledge").data.extras["knowledge_base"]


def benign_patterns(knowledge, count: int, seed: int) -> list[str]:
    """Patterns an agent writes (words, alternations, classes, repeats), drawn from the text."""
    rng = random.Random(seed)
    text = " ".join(doc.content for doc in knowledge.documents)
    words = sorted(set(re.findall(r"[A-Za-z]{4,}", text)))
    shapes = (
        "{a}",
        "{a}|{b}",
        "{a}.*{b}",
        r"\b{a}\b",
        r"{a}\w+",
        r"{a}\s+\w+",
        "(?i){A}",
        "{a}s?",
        "[A-Z]{a}",
        r"\d+",
        r"\$\d+(\.\d\d)?",
        r"\d{{1,3}}%",
        "[aeiou]{{3}}",
        "({a}|{b})+",
        r"[^\s]+@",
        "a*",
    )
    patterns = []
    for _ in range(count):
        a, b = rng.choice(words), rng.choice(words)
        patterns.append(rng.choice(shapes).format(a=a.lower(), b=b.lower(), A=a.upper()))
    return patterns


def python_ranking(knowledge, pattern: str) -> list[tuple[str, float]]:
    """The reference's ranking, with Python's ``re``."""
    compiled = re.compile(pattern, re.IGNORECASE)
    found = [(doc.id, float(len(compiled.findall(doc.content)))) for doc in knowledge.documents]
    found = [item for item in found if item[1]]
    found.sort(key=lambda item: item[1], reverse=True)
    return found[:10]


def test_counts__equal_pythons_on_benign_patterns_of_both_knowledge_bases(builtin_knowledge, bank):
    official = bank.data.extras["knowledge_base"]
    for knowledge, seed in ((builtin_knowledge, 1), (official, 2)):
        for pattern in benign_patterns(knowledge, 60, seed):
            found = [(doc.id, score) for doc, score in grep_documents(knowledge, pattern)]
            assert found == python_ranking(knowledge, pattern), pattern


@pytest.mark.parametrize(
    "pattern", [r"(\s|.)*@@@", r"(a|aa)*@@@", r"([a-z]+)+@@@", r"(\w+\s?)+@@@"]
)
def test_catastrophic_for_re__searched_in_linear_time(builtin_knowledge, pattern):
    """Issue 56, defect 1: Python's re never returned on the first one."""
    assert grep_documents(builtin_knowledge, pattern) == []


@pytest.mark.parametrize(
    ("pattern", "words"),
    [
        (r"(fee)\1", "invalid escape sequence: \\1"),
        ("(?<=annual )fee", "invalid perl operator: (?<"),
        ("(?=fee)fee", "invalid perl operator: (?="),
        (r"fee\Z", "invalid escape sequence: \\Z"),
    ],
)
def test_constructs_re2_lacks__a_tool_error_naming_them(builtin_knowledge, pattern, words):
    with pytest.raises(ToolError, match="grep cannot run this pattern") as error:
        grep_documents(builtin_knowledge, pattern)
    assert words in str(error.value)


def test_a_pattern_re_cannot_compile__searched_literally(builtin_knowledge):
    literal = grep_documents(builtin_knowledge, "fee (")
    assert literal == grep_documents(builtin_knowledge, r"fee \(")


def test_bounds__pattern_length_and_cpu_time(builtin_knowledge, monkeypatch):
    with pytest.raises(ToolError, match=f"grep takes at most {MAX_PATTERN:,}"):
        grep_documents(builtin_knowledge, "x" * (MAX_PATTERN + 1))
    monkeypatch.setattr(grep, "CPU_SECONDS", -1.0)
    with pytest.raises(ToolError, match="took more than -1 s"):
        grep_documents(builtin_knowledge, "fee")
