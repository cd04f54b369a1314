"""Facts a built-in refusal or information task must not hear: the shared rules of choosing them.

Each generator of a customer-service domain (airline, retail, banking) gives its refusal and
information tasks ``forbidden_info`` (`tau_env.tasks.EvaluationCriteria`): the distinctive
phrases of the policy's other rules that do not apply to the case (a recital of the policy says
them), and figures of the customer's other records that no answer to the request needs (a dump
of every looked-up value says them). The strict COMMUNICATE check fails an agent that says one
(`tau_env.grading.strict_graders`). This module holds what the domains share: dropping the
candidates an honest answer could say after all, and checking that every reason phrase is
in the policy's words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from tau_env.errors import DataError
from tau_env.grading.facts import Phrase, heard_in, phrase, tokens

__all__ = ["check_in_policy", "reason_phrases", "unsaid"]


def unsaid(
    candidates: Iterable[str],
    allowed: Iterable[str],
    phrases: Mapping[str, Phrase] | None = None,
) -> list[str]:
    """The candidates (in order, each once) that none of the `allowed` texts says.

    `allowed`: what an honest answer may say (the facts to communicate, the figures of the
    record the request is about); a candidate heard in one of them is no forbidden fact.
    `phrases`: candidates already cut into words (`reason_phrases`), the rest are cut here.
    """
    said = [tokens(text) for text in allowed]
    known = phrases or {}
    kept: list[str] = []
    for candidate in candidates:
        words = known.get(candidate)
        if words is None:
            words = phrase(candidate)
        if words and candidate not in kept and not any(heard_in(words, s) for s in said):
            kept.append(candidate)
    return kept


def reason_phrases(reasons: Iterable[str]) -> dict[str, Phrase]:
    """Each reason phrase cut into words, for `unsaid`: once per generator, not per task.

    A generator's reason phrases are fixed, and cutting them for every refusal task was
    about a fifth of choosing its forbidden facts.
    """
    return {reason: phrase(reason) for reason in reasons}


def check_in_policy(phrases: Iterable[str], policy: str, source: str) -> None:
    """Check that every reason phrase is in the policy's words (a recital must say it).

    Raises:
        DataError: A phrase the policy does not say (the message names it and `source`).
    """
    words = tokens(policy)
    missing = [p for p in phrases if not heard_in(phrase(p), words)]
    if missing:
        raise DataError(f"{source}: reason phrases not in the policy: {missing}")
