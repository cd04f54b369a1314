"""Facts built-in refusals and questions must not hear (issue 53), chosen by the generators."""

import pytest

import tau_env
from tau_env.domains.forbidden import check_in_policy, reason_phrases, unsaid
from tau_env.errors import DataError
from tau_env.grading.facts import heard_in, phrase, tokens
from tau_env.transfer import TRANSFER_TOOL


def test_unsaid__drops_what_an_honest_answer_may_say():
    assert unsaid(["24 hours", "150", "150.00", "flown"], ["$150 refund"]) == ["24 hours", "flown"]
    assert unsaid(["a", "a", " "], []) == ["a"]


def test_unsaid__reads_phrases_cut_beforehand_as_it_cuts_them():
    candidates = ["24 hours", "Flown", "150", "once per order", "flown"]
    allowed = ["$150 refund, flown once"]
    phrases = reason_phrases(["24 hours", "Flown", "once per order"])
    assert phrases["once per order"] == ("once", "per", "order")
    assert unsaid(candidates, allowed, phrases) == unsaid(candidates, allowed)
    assert unsaid(candidates, allowed, phrases) == ["24 hours", "once per order"]
    # a phrase is what it was cut into: the map decides for the candidates it holds
    assert unsaid(["Flown"], allowed, {"Flown": ("hours",)}) == ["Flown"]


def test_check_in_policy__names_the_phrase_the_policy_lacks():
    check_in_policy(["basic economy"], "Basic economy flights cannot change.", "x")
    with pytest.raises(DataError, match=r"x: reason phrases not in the policy: \['flown'\]"):
        check_in_policy(["flown", "basic economy"], "Basic economy flights.", "x")


def _writes_nothing(domain, task):
    tools = domain.toolbox.tools("agent")
    kinds = [tools.get(a.name).kind for a in task.gold_actions if tools.get(a.name) is not None]
    transfers = any(a.name == TRANSFER_TOOL for a in task.gold_actions)
    return transfers or "write" not in kinds


@pytest.mark.parametrize("name", ["airline", "retail"])
def test_builtin__every_refusal_and_question_lists_facts_a_recital_or_dump_says(name):
    domain = tau_env.load_domain(name)
    policy = tokens(domain.policy)
    checked = 0
    for task in domain.tasks:
        criteria = task.evaluation_criteria
        assert criteria.grading == "strict", task.id
        if not _writes_nothing(domain, task):
            continue
        checked += 1
        forbidden = criteria.forbidden_info or []
        assert "COMMUNICATE" in criteria.reward_basis, task.id
        # A recital of the policy says one of them ...
        assert any(heard_in(phrase(f), policy) for f in forbidden), task.id
        # ... and none is a fact the task asks for.
        said = [tokens(info) for info in criteria.communicate_info or []]
        assert not any(heard_in(phrase(f), s) for f in forbidden for s in said), task.id
    assert checked >= 60


def test_builtin_banking__refusals_list_the_tool_names_the_policy_says():
    domain = tau_env.load_domain("banking_knowledge")
    policy = tokens(domain.policy)
    listed = [t for t in domain.tasks if t.evaluation_criteria.forbidden_info]
    assert len(listed) >= 30
    for task in listed:
        criteria = task.evaluation_criteria
        assert "COMMUNICATE" in criteria.reward_basis, task.id
        assert any(heard_in(phrase(f), policy) for f in criteria.forbidden_info), task.id
    # A refusal's gold plan is more than verify-then-refuse, or verify, list the accounts with
    # the tool the policy names as its example, and refuse: a look-up only its path makes, a
    # fact to say, or a write of its own.
    example = "list_customer_accounts_4410"
    assert example in domain.policy
    for task in domain.tasks:
        used = {a.arguments.get("agent_tool_name", a.name) for a in task.gold_actions}
        if used <= {"log_verification", example}:
            criteria = task.evaluation_criteria
            assert criteria.communicate_info and "COMMUNICATE" in criteria.reward_basis, task.id
