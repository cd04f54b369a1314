r"""Regex search over the documents, ranked by match count (the reference's ``grep``).

Patterns run on RE2 (``google-re2``), whose search time is linear in the text whatever the
pattern. The reference runs Python's ``re``, which backtracks: one pattern such as
``(\s|.)*@@@`` held a whole server for good. A pattern is read as the reference reads it (one
that ``re`` cannot compile is searched for literally), and counted as ``re.findall`` counts:
every match, empty ones included. The counts equal the reference's on every recorded call
(``tests/domains/banking_knowledge/reference_retrieval.json``) and on the benign patterns the
tests compare; they can differ only on patterns written for the difference:

- constructs RE2 does not have (backreferences, lookaround, ``\Z``, possessive or atomic
  groups, conditionals, the ``(?x)`` flag) are refused with a tool error that names them;
- ``\d``, ``\w``, ``\s`` and ``\b`` are ASCII in RE2 and Unicode in ``re`` (the knowledge bases
  hold no non-ASCII letter, digit or space); ``$`` without ``(?m)`` matches only at the very
  end (``re`` also before a final newline); ``x{,3}`` is literal text in RE2;
- after an empty match ``re`` may find a non-empty one at the same place (a lazy ``a*?``, an
  empty alternative written first), where RE2 moves one character on and counts fewer.

Bounds: a pattern is at most `MAX_PATTERN` characters, and a search stops with a tool error
after `CPU_SECONDS` of its thread's CPU time (checked between documents; RE2's worst searches
of the official knowledge base take under a second).
"""

from __future__ import annotations

import re
import time

import re2

from tau_env.domains.banking_knowledge.retrieval.knowledge import Document, KnowledgeBase
from tau_env.errors import ToolError

__all__ = ["CPU_SECONDS", "MAX_PATTERN", "grep_documents"]

MAX_PATTERN = 1000
"""The longest pattern searched for, in characters."""

CPU_SECONDS = 2.0
"""The CPU time one search may take (its thread's), before it stops with a tool error."""

_UNANCHORED = re2._re2.RE2.Anchor.UNANCHORED


def grep_documents(
    knowledge: KnowledgeBase, pattern: str, *, top_k: int = 10, case_sensitive: bool = False
) -> list[tuple[Document, float]]:
    """Documents whose content matches `pattern`, most matches first, at most `top_k`.

    The score is the number of matches (see the module for the counting); ties keep document
    order. A blank pattern finds nothing.

    Raises:
        ToolError: The pattern is too long, uses a construct RE2 lacks, or took longer than
            `CPU_SECONDS` to search.
    """
    if not pattern.strip():
        return []
    if len(pattern) > MAX_PATTERN:
        raise ToolError(
            f"pattern too long ({len(pattern):,} characters): grep takes at most {MAX_PATTERN:,}"
        )
    compiled = _compile(pattern, case_sensitive)
    deadline = time.thread_time() + CPU_SECONDS
    found = []
    for doc, text in zip(knowledge.documents, knowledge.contents_utf8, strict=True):
        if time.thread_time() > deadline:
            raise ToolError(
                f"grep stopped: the pattern took more than {CPU_SECONDS:g} s to search; "
                "use a simpler one"
            )
        count = _count(compiled, text)
        if count:
            found.append((doc, float(count)))
    found.sort(key=lambda item: item[1], reverse=True)
    return found[:top_k]


def _compile(pattern: str, case_sensitive: bool) -> re2._re2.RE2:
    """The pattern as RE2 runs it: literal when Python's ``re`` cannot compile it."""
    options = re2.Options()
    options.case_sensitive = case_sensitive
    options.never_capture = True  # only whole matches are counted
    options.log_errors = False  # a pattern too big for the DFA is not worth a log line
    try:
        re.compile(pattern)
    except re.error:
        options.literal = True  # the reference searches for such a pattern literally
    compiled = re2._re2.RE2(pattern.encode("utf-8", "surrogatepass"), options)
    if not compiled.ok():
        reason = compiled.error().decode("utf-8", "replace")
        raise ToolError(
            f"grep cannot run this pattern ({reason}): patterns run on RE2, in linear time, "
            "without backreferences, lookaround, \\Z, possessive or atomic groups"
        )
    return compiled


def _count(compiled: re2._re2.RE2, text: bytes) -> int:
    """How many matches ``re.findall`` would list in `text` (UTF-8), empty ones included."""
    match = compiled.Match
    count = position = 0
    end = len(text)
    while True:
        start, stop = match(_UNANCHORED, text, position, end)[0]
        if start < 0:
            return count
        count += 1
        if stop != start:
            position = stop
        elif stop == end:
            return count
        else:  # an empty match: search on from one character (one to four UTF-8 bytes) further
            lead = text[stop]
            position = stop + (1 if lead < 0xC0 else 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4)
