"""The strict rules' component graders: checks that only doing the task passes (issue 53).

Built-in tasks are graded with them (``evaluation_criteria.grading: "strict"``, written by
the task generators); ``--grading strict`` reads official tasks with them too, beside the
official score (`tau_env.grading.strict`). Where they differ from the reference's:

- ACTION: a gold action matches only a call with every argument the gold call has (or its
  ``compare_args``) equal, and never a call the env answered with an error (unless the gold
  step itself fails when the plan is replayed, as a few official ones do).
- COMMUNICATE: each fact is heard as whole words and whole numbers (`tau_env.grading.facts`),
  in an agent message sent after the fact was looked up: after a successful tool result of
  the agent's that holds it, or, for a fact no result holds (a total, a rule), after every
  read the gold plan makes was made. And no fact of ``forbidden_info`` is said, anywhere.
- DB: the databases as the reference compares them, and the hand-overs as the gold plan makes
  them: a transfer where the gold plan has none, a second one, or one with another reason
  fails it.

ENV_ASSERTION and NL_ASSERTION are the reference's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tau_env.grading.actions import ActionGrader
from tau_env.grading.calls import answered_calls, matches_exactly
from tau_env.grading.context import Episode
from tau_env.grading.db import database_details, nothing_to_compare
from tau_env.grading.facts import Phrase, heard_in, phrase, tokens
from tau_env.grading.outcome import Check, new_check
from tau_env.messages import has_text
from tau_env.tasks.model import GoldAction
from tau_env.transfer import TRANSFER_TOOL

__all__ = ["StrictActionGrader", "StrictCommunicateGrader", "StrictDBGrader"]


class StrictActionGrader(ActionGrader):
    """Every gold action is matched exactly by a call the env did not answer with an error.

    A gold step that itself fails when the plan is replayed (`TaskBaseline.failing_gold`) is
    matched by a call that fails the same way.
    """

    def met_actions(self, episode: Episode, gold: Sequence[GoldAction]) -> list[bool]:
        """Per gold action: some call matches it exactly (`matches_exactly`)."""
        calls = answered_calls(episode.trajectory)
        baseline = episode.baseline
        failing = baseline.failing_gold if baseline is not None else ()
        met = []
        for index, action in enumerate(gold):
            fails = index < len(failing) and failing[index]
            met.append(
                any(
                    matches_exactly(action, answered.call)
                    for answered in calls
                    if fails or not answered.failed
                )
            )
        return met


class StrictCommunicateGrader:
    """Each fact said after it was looked up, as whole words; no forbidden fact said."""

    component = "COMMUNICATE"

    def check(self, episode: Episode) -> Check:
        """Grade one episode."""
        criteria = episode.task.evaluation_criteria
        expected = (criteria.communicate_info if criteria else None) or []
        forbidden = (criteria.forbidden_info if criteria else None) or []
        if not expected and not forbidden:
            return new_check("COMMUNICATE", 1.0)
        facts = [phrase(info) for info in expected]
        said_facts = [False] * len(facts)
        banned = [phrase(info) for info in forbidden]
        said_banned = [False] * len(banned)
        looked_up: float | None = None  # `_looked_up_at`, once a fact is first heard
        results = _Results()  # the agent's successful tool results so far
        for position, message in enumerate(episode.trajectory):
            if message.role == "tool":
                if message.requestor == "assistant" and not message.error:
                    results.add(message.content or "")
                continue
            if message.role != "assistant" or not (message.content and has_text(message.content)):
                continue
            said = tokens(message.content)
            for index, fact in enumerate(facts):
                if not said_facts[index] and heard_in(fact, said):
                    if looked_up is None:
                        looked_up = _looked_up_at(episode)
                    said_facts[index] = position > looked_up or results.hold(fact)
            for index, fact in enumerate(banned):
                said_banned[index] = said_banned[index] or heard_in(fact, said)
        details: list[dict[str, Any]] = [
            {"info": info, "met": met} for info, met in zip(expected, said_facts, strict=True)
        ]
        details += [
            {"forbidden": info, "met": not said, "constraint": True}
            for info, said in zip(forbidden, said_banned, strict=True)
        ]
        reward = 1.0 if all(d["met"] for d in details) else 0.0
        return new_check("COMMUNICATE", reward, details)


class _Results:
    """The agent's tool results so far, cut into tokens only when a fact is looked for in them.

    The usual episode says its facts after the gold plan's reads, so its results are never
    read again: tokenising them all would be most of the check's cost.
    """

    def __init__(self) -> None:
        self._texts: list[str] = []
        self._tokens: list[Phrase] = []

    def add(self, text: str) -> None:
        self._texts.append(text)

    def hold(self, fact: Phrase) -> bool:
        """True when one of the results so far holds `fact`."""
        tokenised = self._tokens
        tokenised += [tokens(text) for text in self._texts[len(tokenised) :]]
        return any(heard_in(fact, result) for result in tokenised)


def _looked_up_at(episode: Episode) -> float:
    """Position of the message after which every read of the gold plan was made.

    The gold plan's calls of the agent's read-only tools are what looks facts up; each must be
    matched exactly by a call that did not fail. Infinite when one never is; -1 when the gold
    plan reads nothing.
    """
    tools = episode.world.toolbox.tools("agent")
    baseline = episode.baseline
    failing = baseline.failing_gold if baseline is not None else ()
    reads = [
        action
        for index, action in enumerate(episode.task.gold_actions)
        if action.requestor == "assistant"
        and (spec := tools.get(action.name)) is not None
        and spec.kind == "read"
        and not (index < len(failing) and failing[index])  # (a failing read finds nothing)
    ]
    if not reads:
        return -1
    calls = [a for a in answered_calls(episode.trajectory) if not a.failed]
    latest = -1
    for read in reads:
        made = next((a.position for a in calls if matches_exactly(read, a.call)), None)
        if made is None:
            return float("inf")
        latest = max(latest, made)
    return latest


class StrictDBGrader:
    """The databases as the reference compares them, and the hand-overs as the gold plan's.

    The hand-over detail is an item of partial credit when the gold plan transfers
    (``{"handover": "as planned", "met": ...}``), else a constraint (``{"handover": "none",
    "met": ..., "constraint": True}``): every transfer the agent makes must match a transfer
    of the gold plan exactly, one for one.
    """

    component = "DB"

    def check(self, episode: Episode) -> Check:
        """Grade one episode."""
        task = episode.task
        planned = [a for a in task.gold_actions if a.name == TRANSFER_TOOL]
        made = [
            a.call
            for a in answered_calls(episode.trajectory)
            if a.call.name == TRANSFER_TOOL and a.call.requestor == "assistant" and not a.failed
        ]
        as_planned = len(made) == len(planned) and _one_for_one(planned, made)
        compared = not nothing_to_compare(task)
        if not compared and not made:
            return new_check("DB", 1.0, reported=False)
        differences = episode.world.differences(episode.expected_world) if compared else []
        details = database_details(episode, differences) if compared else []
        handover: dict[str, Any] = {"handover": "as planned" if planned else "none"}
        handover["met"] = as_planned
        if not planned:
            handover["constraint"] = True
        if made:
            handover["transfers"] = len(made)
        details.append(handover)
        reward = 1.0 if as_planned and not differences else 0.0
        return new_check("DB", reward, details)


def _one_for_one(planned: list[GoldAction], made: list[Any]) -> bool:
    """Each made transfer matches a distinct planned one (the lists have one length)."""
    left = list(planned)
    for call in made:
        match = next((gold for gold in left if matches_exactly(gold, call)), None)
        if match is None:
            return False
        left.remove(match)
    return True
