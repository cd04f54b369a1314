"""The agent's policy for a retrieval variant, assembled from the prompt files (as there).

A variant's template (``prompts/<name>.md``) has its ``{{component:NAME}}`` markers replaced
by ``prompts/components/NAME.md``; the full-KB template then gets every document, the
golden-documents template the task's required documents.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from tau_env.domains.banking_knowledge.retrieval.knowledge import Document, KnowledgeBase
from tau_env.errors import DataError

__all__ = [
    "GOLDEN_POLICY_PLACEHOLDER",
    "full_kb_policy",
    "golden_policy",
    "standard_policy",
]

GOLDEN_POLICY_PLACEHOLDER = "(Policy is task-specific - see 'policy' field in each simulation)"
"""What the run records as the policy of the golden-documents variant (the reference's text)."""

_COMPONENT = re.compile(r"\{\{component:(\w+)\}\}")


def _section(doc: Document) -> str:
    return f"## {doc.title}\n\n{doc.content}"


def standard_policy(prompts: Mapping[str, str], template: str) -> str:
    """The template with its components filled in.

    Raises:
        DataError: The template or a component it names is missing, or the result is empty.
    """
    text = prompts.get(template)
    if text is None:
        raise DataError(f"prompts/{template}: prompt template not found")

    def component(match: re.Match[str]) -> str:
        name = f"components/{match.group(1)}.md"
        if name not in prompts:
            raise DataError(f"prompts/{name}: prompt component not found")
        return prompts[name]

    policy = _COMPONENT.sub(component, text)
    if not policy.strip():
        raise DataError(f"prompts/{template}: the policy is empty")
    return policy


def full_kb_policy(prompts: Mapping[str, str], template: str, knowledge: KnowledgeBase) -> str:
    """The template with every document inlined (``## title``, content, ``---`` between)."""
    documents = "\n\n---\n\n".join(_section(doc) for doc in knowledge.documents)
    return standard_policy(prompts, template).replace("{{full_knowledge_base}}", documents)


def golden_policy(
    prompts: Mapping[str, str],
    template: str,
    knowledge: KnowledgeBase,
    required: Sequence[str],
) -> str:
    """The template with a task's required documents inlined (looked up by title, then id).

    References that match nothing are left out; with none found the block says
    ``(No documents provided)``.
    """
    found = [
        doc
        for ref in required
        if (doc := knowledge.by_title.get(ref) or knowledge.by_id.get(ref)) is not None
    ]
    documents = "\n\n---\n\n".join(map(_section, found)) if found else "(No documents provided)"
    return standard_policy(prompts, template).replace("{{required_documents}}", documents)
