"""The built-in bank's generator: deterministic, verified, consistent with its own documents."""

import dataclasses
import json
from importlib import resources

import pytest

from tau_env.domains.banking_knowledge.builtin import BANK_FILES
from tau_env.domains.banking_knowledge.discoverable import BEHAVIOURS, check_catalog
from tau_env.domains.banking_knowledge.generator import BUILTIN_SEED, generate, render_files
from tau_env.domains.banking_knowledge.generator.catalog import TOOLS, catalog
from tau_env.domains.banking_knowledge.generator.products import (
    FAMILIES,
    TEST_FAMILIES,
    draw_bank,
)
from tau_env.domains.banking_knowledge.generator.tasks import FAMILY_KINDS
from tau_env.domains.banking_knowledge.generator.verify import (
    GenerationError,
    builtin_domain,
    verify_tasks,
)


@pytest.fixture(scope="module")
def shipped():
    """The built-in bank as the generator produces it for the shipped seed (not re-verified)."""
    return generate(BUILTIN_SEED, verify=False)


def test_generate__same_seed_gives_identical_files():
    first = render_files(generate(7, scale=0.2, verify=False))
    second = render_files(generate(7, scale=0.2, verify=False))
    assert first == second
    other = render_files(generate(8, scale=0.2, verify=False))
    assert other[BANK_FILES["db"]] != first[BANK_FILES["db"]]
    assert other[BANK_FILES["documents"]] != first[BANK_FILES["documents"]]


def product(task: dict) -> str:
    """A generated task's product family (``savings``), kept in its description."""
    return task["description"]["parameters"]["product"]


def test_shipped_data__is_what_the_generator_produces(shipped):
    folder = resources.files("tau_env.domains.banking_knowledge").joinpath("data")
    for name, text in render_files(shipped).items():
        assert folder.joinpath(name).read_text(encoding="utf-8") == text, name


def test_generate__other_seeds_give_tasks_that_pass_their_gold_replay():
    generated = generate(31, scale=0.3)  # verify=True: raises GenerationError on any failure
    assert {product(task) for task in generated.tasks} == set(FAMILIES)


def test_verify_tasks__rejects_a_plan_that_does_not_solve_its_task(shipped):
    tasks = [dict(task) for task in shipped.tasks if product(task) == "savings"]
    broken = json.loads(json.dumps(tasks[0]))
    actions = broken["evaluation_criteria"]["actions"]
    last = actions[-1]
    arguments = json.loads(last["arguments"]["arguments"])
    arguments["account_id"] = "sav_nobody_1"  # the tool answers "Error: ... not found."
    last["arguments"]["arguments"] = json.dumps(arguments)
    bad = dataclasses.replace(shipped, tasks=[broken], splits={"base": [broken["id"]]})
    with pytest.raises(GenerationError, match=broken["id"]):
        verify_tasks(builtin_domain(bad.domain_data()))


def test_catalog__names_are_our_own_and_point_at_real_behaviours():
    entries = catalog()
    check_catalog(entries, source="test")
    assert {entry.behaviour for entry in entries} <= set(BEHAVIOURS)
    from tau_env.domains.banking_knowledge.discoverable import reference_catalog

    reference = {entry.name for entry in reference_catalog()}
    assert not reference & {entry.name for entry in entries}
    described = {e.description for e in reference_catalog()}
    assert not described & {entry.description for entry in entries}


def test_documents__name_every_catalogue_tool_and_nothing_else(shipped):
    text = "\n".join(doc["content"] for doc in shipped.documents)
    for name in TOOLS.values():
        assert name in text, name
    import re

    suffixed = set(re.findall(r"\b[a-z_]+_\d{4}\b", text))
    assert suffixed <= set(TOOLS.values())


def test_tasks__every_tool_a_plan_calls_is_named_in_its_required_documents(shipped):
    documents = {doc["id"]: doc["content"] for doc in shipped.documents}
    for task in shipped.tasks:
        required = "\n".join(documents[doc_id] for doc_id in task["required_documents"])
        for action in task["evaluation_criteria"]["actions"]:
            arguments = action["arguments"]
            name = arguments.get("agent_tool_name") or arguments.get("discoverable_tool_name")
            if name:
                assert name in required, (task["id"], name)


def test_tasks__refusals_write_nothing_but_the_verification_and_required_reads(shipped):
    writes = {name for key, name in TOOLS.items() if BEHAVIOURS[key].mutates_state}
    for task in shipped.tasks:
        if "refused" not in task["description"]["family"]:
            continue
        called = {
            action["arguments"].get("agent_tool_name")
            for action in task["evaluation_criteria"]["actions"]
        }
        assert not called & writes, task["id"]


def test_products__keep_every_rule_inside_what_the_tools_enforce():
    for seed in range(5):
        bank = draw_bank(__import__("random").Random(seed))
        for product in bank.checking:
            assert product.debit.temp_cap_percent <= 150  # the tool's own ceiling
        for card in bank.cards:
            assert card.limits.on_time_months <= 9  # payment history stays within 2025
            assert card.limits.highest(min(card.starting_limits)) > min(card.starting_limits)
        everyday = [p for p in bank.checking if p.family == "everyday_checking"]
        assert any(p.atm_refunds == 0 for p in everyday)


def test_splits__test_holds_whole_families_absent_from_train(shipped):
    splits = shipped.splits
    train, test = set(splits["train"]), set(splits["test"])
    assert not train & test
    assert train | test == set(splits["base"]) == {task["id"] for task in shipped.tasks}
    products = {task["id"]: product(task) for task in shipped.tasks}
    assert {products[i] for i in test} == set(TEST_FAMILIES)
    assert not {products[i] for i in train} & set(TEST_FAMILIES)
    assert set(FAMILY_KINDS) == set(FAMILIES)
