"""The task generator: families, determinism, disjoint splits, verification by gold replay."""

import dataclasses
from collections import Counter

import pytest

import tau_env
from tau_env.data_files import BUILTIN_FILES
from tau_env.domains.telecom import builtin_databases
from tau_env.domains.telecom.tasks import issues
from tau_env.domains.telecom.tasks.build import GenerationError, Verifier, build_task
from tau_env.domains.telecom.tasks.compose import Blueprint, compose
from tau_env.domains.telecom.tasks.generate import (
    HELD_OUT_ISSUES,
    TEST_CUSTOMERS,
    TRAIN_CUSTOMERS,
    compose_all,
    generate,
    load_scenarios,
    render,
)
from tau_env.domains.telecom.tasks.intents import INTENTS
from tau_env.domains.telecom.tasks.personas import PERSONAS
from tau_env.domains.telecom.tasks.settings import SETTINGS


def test_compose__same_families_as_the_reference():
    counts = {name: len(blueprints) for name, blueprints in compose_all().items()}
    assert counts == {"service_issue": 71, "mobile_data_issue": 382, "mms_issue": 2976}
    assert sum(counts.values()) >= 2285
    names = [b.name for b in compose_all()["mobile_data_issue"]]
    assert "airplane_mode_on" not in names  # airplane mode alone is not a data problem
    assert len(set(names)) == len(names)


def test_compose__every_blueprint_verifies_by_gold_replay():
    # All 3,429 compositions, each with a customer, persona and location chosen in turn.
    data = builtin_databases()
    verifier, scenarios = Verifier(data), load_scenarios(data)
    count = 0
    for blueprints in compose_all().values():
        for index, blueprint in enumerate(blueprints):
            scenario = scenarios[index % len(scenarios)]
            location = "abroad in Chile" if blueprint.abroad else scenario.home
            verifier.verify(build_task(blueprint, PERSONAS[index % 3], scenario, location))
            count += 1
    assert count == 3429


def test_generate__reproduces_the_shipped_files():
    tasks, splits = generate(builtin_databases())
    tasks_text, splits_text = render(tasks, splits)
    from importlib import resources

    folder = resources.files("tau_env.domains.telecom").joinpath("data")
    assert folder.joinpath(BUILTIN_FILES["tasks"]).read_text(encoding="utf-8") == tasks_text
    assert folder.joinpath(BUILTIN_FILES["splits"]).read_text(encoding="utf-8") == splits_text


def test_generate__splits_test_generalization():
    tasks_a, splits_a = generate(builtin_databases(), seed=1)
    tasks_b, splits_b = generate(builtin_databases(), seed=2)
    assert [t.description for t in tasks_a] != [t.description for t in tasks_b]
    for tasks, splits in ((tasks_a, splits_a), (tasks_b, splits_b)):
        by_id = {task.id: task for task in tasks}
        assert set(splits["base"]) == set(by_id)
        drawn = {
            split: [(by_id[i].family, by_id[i].description.parameters) for i in splits[split]]
            for split in ("train", "test", "test_ood")
        }
        combos = {
            split: {(intent, found["issues"]) for intent, found in drawn[split]} for split in drawn
        }
        assert not combos["train"] & (combos["test"] | combos["test_ood"])
        issues_of = {
            split: {name for _, combo in combos[split] for name in combo.split("|")}
            for split in combos
        }
        assert not issues_of["train"] & HELD_OUT_ISSUES
        assert issues_of["test"] >= HELD_OUT_ISSUES and issues_of["test_ood"] >= HELD_OUT_ISSUES
        customers = {split: {found["customer"] for _, found in drawn[split]} for split in drawn}
        assert customers["train"] == set(TRAIN_CUSTOMERS)
        assert customers["test"] | customers["test_ood"] <= set(TEST_CUSTOMERS)
        assert all(found["persona"] == "Hard" for _, found in drawn["test_ood"])
        assert not any(found["persona"] == "Hard" for _, found in drawn["train"])
        for split in ("train", "test", "test_ood"):
            intents = Counter(intent for intent, _ in drawn[split])
            assert set(intents) == set(INTENTS)
            unfixable = sum("ACTION" in by_id[i].reward_basis for i in splits[split])
            assert 0 < unfixable < len(splits[split]) / 2
            kept = sum("keep" in found for _, found in drawn[split])
            assert kept >= 0.7 * len(splits[split])  # blanket fixing fails most tasks


def test_tasks__are_graded_strictly_and_carry_no_user_script():
    for task in tau_env.load_domain("telecom").tasks:
        basis = task.reward_basis
        transfer = task.gold_actions[-1].name == "transfer_to_human_agents"
        assert basis == (["ENV_ASSERTION", "DB", "ACTION"] if transfer else ["ENV_ASSERTION", "DB"])
        names = [a.name for a in task.gold_actions]
        assert names.count("transfer_to_human_agents") == int(transfer)
        assert task.evaluation_criteria.env_assertions
        assert task.initial_state.initialization_actions[0].func_name == "set_user_info"
        known = task.user_scenario.instructions.known_info
        assert task.ticket and known.split("Your name is ")[1].split(" and")[0] in task.ticket
        assert "user_script" not in task.model_dump()


def test_settings__are_harmless_for_their_intents_and_changing_them_fails_the_db_check():
    data = builtin_databases()
    verifier, scenario = Verifier(data), load_scenarios(data)[0]
    for setting in SETTINGS:
        for intent_name in setting.benign_for:
            intent = INTENTS[intent_name]
            blueprint = next(
                b
                for b in compose(intent)
                if len(b.issues) == 1
                and b.fixable
                and not setting.conflicts & {i.name for i in b.issues}
            )
            task = build_task(blueprint, PERSONAS[0], scenario, scenario.home, (setting,))
            verifier.verify(task)  # the goal is reached with the setting kept
            assert f"[KEEP:{setting.name}]" in task.id


def test_verifier__rejects_an_issue_whose_fix_does_not_work():
    data = builtin_databases()
    scenario = load_scenarios(data)[0]
    wrong_fix = dataclasses.replace(
        issues.DATA_MODE_OFF, fixes=lambda s: [("user", "toggle_roaming", {})]
    )
    task = build_task(
        Blueprint(INTENTS["mobile_data_issue"], (wrong_fix,)), PERSONAS[0], scenario, scenario.home
    )
    with pytest.raises(GenerationError, match="does not reach the expected state"):
        Verifier(data).verify(task)
    harmless = dataclasses.replace(issues.DATA_MODE_OFF, breaks=lambda s: [])
    task = build_task(
        Blueprint(INTENTS["mobile_data_issue"], (harmless,)), PERSONAS[0], scenario, scenario.home
    )
    with pytest.raises(GenerationError, match="do not break anything"):
        Verifier(data).verify(task)


def test_generated_scenarios__tell_the_scripted_user_its_goal_and_offers():
    from tau_env.domains.telecom.user_script import USER_VOCABULARY
    from tau_env.tasks.scenario_reading import read_scenario

    expected = {
        "service_issue": "check_status_bar",
        "mobile_data_issue": "run_speed_test",
        "mms_issue": "can_send_mms",
    }
    for task in tau_env.load_domain("telecom").tasks:
        script = read_scenario(str(task.user_scenario), USER_VOCABULARY.scenario).script
        intent = task.family
        assert [check.tool for check in script.goal_checks] == [expected[intent]], task.id
        assert script.facts["phone_number"] in task.ticket
        offer = "pay" if intent == "service_issue" else "refuel"
        assert offer in script.accepts, task.id


def test_generate__apart_from_the_persona_draws_every_distinct_task_once():
    # `tau-env generate` asks for as many service tasks as there are: a task differing from
    # another only in its persona is never drawn (not even across test and test_ood), and the
    # draw stops with every (blueprint, customer, settings) of the intent drawn once.
    sizes = {split: {"service_issue": 5000} for split in ("train", "test", "test_ood")}
    tasks, _ = generate(builtin_databases(), 3, sizes, verify=False, distinct_by_persona=False)
    found = Counter(
        (found["issues"], found["customer"], found.get("keep", ""))
        for found in (task.description.parameters for task in tasks)
    )
    assert max(found.values()) == 1
    per_blueprint = 0
    for blueprint in compose(INTENTS["service_issue"]):
        broken = {issue.name for issue in blueprint.issues}
        options = [
            s.name for s in SETTINGS if "service_issue" in s.benign_for and not s.conflicts & broken
        ]
        conflicts = {s.name: s.conflicts for s in SETTINGS}
        pairs = [(a, b) for a in options for b in options if a < b]
        per_blueprint += 1 + len(options) + sum(not conflicts[a] & conflicts[b] for a, b in pairs)
    assert len(tasks) == len(TRAIN_CUSTOMERS) * per_blueprint  # as many test customers
