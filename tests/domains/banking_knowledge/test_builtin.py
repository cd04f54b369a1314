"""The built-in bank as shipped: loads offline, its tasks, documents, cards and scripts."""

import json
import re
from collections import Counter

import pytest

import tau_env
from tau_env.domains.banking_knowledge.generator.products import FAMILIES, TEST_FAMILIES
from tau_env.domains.banking_knowledge.retrieval.variants import OFFLINE_VARIANTS
from tau_env.wrappers.users.script import resolve_script
from tests.families import of_family


@pytest.fixture(scope="module")
def bank():
    return tau_env.load_domain("banking_knowledge", retrieval="bm25_grep")


def test_make_env__the_built_in_bank_needs_no_data_folder():
    env = tau_env.make_env("banking_knowledge")
    raw = env.unwrapped
    assert raw.domain.data.source == "built-in"
    assert len(raw.tasks) >= 200
    env.reset(seed=0, options={"task_id": raw.tasks[0].id})
    assert "Larkspur Bank" in raw.domain.policy_for(raw.task)


def test_tasks__at_least_200_over_every_family_graded_like_the_reference(bank):
    counts = Counter(task.description.parameters["product"] for task in bank.tasks)
    assert set(counts) == set(FAMILIES)
    assert sum(counts.values()) >= 200
    assert min(counts[f] for f in FAMILIES if f != "profile") >= 25
    bases = {tuple(task.reward_basis) for task in bank.tasks}
    assert bases == {("DB",), ("DB", "ACTION"), ("DB", "ACTION", "COMMUNICATE")}
    for task in bank.tasks:
        if task.reward_basis == ["DB", "ACTION"]:
            transfers = [a for a in task.gold_actions if a.name == "transfer_to_human_agents"]
            assert transfers and transfers[0].compare_args == ["reason"], task.id
        if task.reward_basis == ["DB", "ACTION", "COMMUNICATE"]:
            # Issue 45: a caller who fails verification changes nothing, so the record
            # look-up and the reason said are graded too (a do-nothing agent must fail).
            assert task.family == "verification_failed", task.id
            assert [a.name for a in task.gold_actions] == ["get_user_information_by_name"]
            assert task.evaluation_criteria.communicate_info == ["date of birth"]


def test_splits__test_families_never_appear_in_train(bank):
    splits = bank.data.splits
    train = {bank.task(i).description.parameters["product"] for i in splits["train"]}
    test = {bank.task(i).description.parameters["product"] for i in splits["test"]}
    assert test == set(TEST_FAMILIES)
    assert not train & test
    assert len(splits["train"]) + len(splits["test"]) == len(splits["base"])


def test_scripts__every_fact_and_reaction_is_in_the_scenario_the_llm_user_reads(bank):
    for task in bank.tasks:
        script = resolve_script(task, bank)
        text = str(task.user_scenario)
        opens = re.search(r'You open the call by saying: "([^"]+)"', text)
        assert opens and script.opening == opens.group(1), task.id
        for key, value in script.facts.items():
            assert value in text or all(v in text for v in value.split(", ")), (task.id, key)
        for keyword in script.accepts:
            assert keyword in text.lower(), (task.id, keyword)
        asks_for_human = "ask to be transferred to a human" in text
        assert (script.after_refusal == "ask_human") == asks_for_human, task.id


def test_scripts__do_not_change_when_the_grading_changes(bank):
    task = next(t for t in bank.tasks if t.user_tools)
    regraded = task.model_copy(update={"evaluation_criteria": None})
    assert resolve_script(regraded, bank) == resolve_script(task, bank)


def test_kb_search__ranks_a_products_own_document_first(bank):
    world = bank.new_world()
    for query, expected in (
        ("Meridian Travel Card credit limit increases", "doc_card_meridian_credit_limits"),
        ("Wren Checking debit card fees and limits", "doc_checking_wren_debit_card"),
        ("Cedar Savings withdrawal allowance and fees", "doc_savings_cedar_withdrawals"),
        ("refund out-of-network ATM fees checking", "doc_procedure_atm_fee_refunds"),
    ):
        result = world.call_tool("agent", "KB_search", {"query": query})
        first = re.search(r"^1\. .*\n   ID: (\S+)", result.content, re.MULTILINE)
        assert first is not None and first.group(1) == expected, query


def test_grep__finds_the_procedure_that_names_a_tool(bank):
    world = bank.new_world()
    result = world.call_tool("agent", "grep", {"pattern": "order_debit_card_2264"})
    ids = re.findall(r"   ID: (\S+)", result.content)
    assert "doc_procedure_ordering_debit_cards" in ids
    assert all(i.startswith("doc_procedure_") for i in ids)


def test_golden_policy__inlines_exactly_the_tasks_documents():
    golden = tau_env.load_domain("banking_knowledge", retrieval="golden_retrieval")
    knowledge = golden.data.extras["knowledge_base"]
    (task, *_) = of_family(golden.tasks, "limit_increase", product="travel_cards")
    policy = golden.policy_for(task)
    required = golden.data.extras["required_documents"][task.id]
    for document in knowledge.documents:
        assert (f"## {document.title}\n" in policy) == (document.id in required), document.id


def test_full_kb_policy__holds_every_document():
    full = tau_env.load_domain("banking_knowledge", retrieval="full_kb")
    knowledge = full.data.extras["knowledge_base"]
    assert len(knowledge.documents) >= 150
    assert all(document.content in full.policy for document in knowledge.documents)


def test_card_tools__accept_the_banks_own_cards_only(bank):
    world = bank.new_world()
    refused = world.call_tool(
        "user",
        "apply_for_credit_card",
        {"card_type": "Gold Rewards Card", "customer_name": "A B", "annual_income": 90000},
    )
    assert refused.content.startswith("Error: Invalid card_type 'Gold Rewards Card'.")
    assert "'Atlas Travel Card'" in refused.content and "Diamond" not in refused.content
    applied = world.call_tool(
        "user",
        "apply_for_credit_card",
        {"card_type": "Atlas Travel Card", "customer_name": "A B", "annual_income": 150000},
    )
    assert applied.content.startswith("Credit card application submitted")
    travel_rate = world.db("agent").card_products["Atlas Travel Card"].rates["Travel"]
    assert travel_rate > world.db("agent").card_products["Atlas Travel Card"].rates["default"]
    spent = world.call_tool(
        "user",
        "submit_transaction",
        {
            "user_id": "u1",
            "credit_card_type": "Atlas Travel Card",
            "merchant_name": "Skylark Airways",
            "amount": 100.0,
            "category": "Travel",
        },
    )
    assert f"Rewards Earned: {int(100 * travel_rate)} points ({travel_rate}% cashback rate)" in (
        spent.content
    )


def test_card_tools__keep_the_reference_cards_on_official_data(data_dir):
    official = tau_env.load_domain("banking_knowledge", data_dir, retrieval="no_knowledge")
    refused = official.new_world().call_tool(
        "user",
        "apply_for_credit_card",
        {"card_type": "Atlas Travel Card", "customer_name": "A B", "annual_income": 1},
    )
    assert "'Bronze Rewards Card', 'Business Bronze Rewards Card'" in refused.content


def _shingles(text: str, size: int = 12) -> set[str]:
    words = re.findall(r"[a-z0-9']+", text.lower())
    return {" ".join(words[i : i + size]) for i in range(len(words) - size + 1)}


def test_documents_and_scenarios__copy_no_text_of_the_official_data(bank, data_dir):
    folder = data_dir / "domains" / "banking_knowledge"
    official: set[str] = set()
    for path in (folder / "documents").glob("*.json"):
        official |= _shingles(json.loads(path.read_text(encoding="utf-8"))["content"])
    for path in (folder / "tasks").glob("task_*.json"):
        official |= _shingles(json.dumps(json.loads(path.read_text(encoding="utf-8"))))
    ours: set[str] = set()
    for document in bank.data.extras["knowledge_base"].documents:
        ours |= _shingles(document.content)
    for task in bank.tasks:
        ours |= _shingles(str(task.user_scenario))
    assert len(official) > 100_000 and len(ours) > 10_000
    assert not ours & official


@pytest.mark.parametrize("variant", OFFLINE_VARIANTS)
def test_validate__every_task_reaches_reward_1_under_every_offline_variant(variant, capsys):
    from tau_env.cli.main import main

    code = main(["validate", "--domain", "banking_knowledge", "--retrieval", variant])
    out = capsys.readouterr().out
    count = len(tau_env.load_domain("banking_knowledge").tasks)
    assert code == 0
    assert f"{count}/{count} tasks reach reward 1.0" in out
