"""The task generator: families, determinism, disjoint splits, verification by gold replay."""

import dataclasses
import random
from collections import Counter

import pytest

import tau_env
from tau_env.data_files import BUILTIN_FILES
from tau_env.domains.telecom import builtin_databases
from tau_env.domains.telecom.tasks import issues
from tau_env.domains.telecom.tasks.build import GenerationError, Verifier, build_task
from tau_env.domains.telecom.tasks.compose import Blueprint
from tau_env.domains.telecom.tasks.generate import compose_all, generate, load_scenarios, render
from tau_env.domains.telecom.tasks.intents import INTENTS
from tau_env.domains.telecom.tasks.personas import PERSONAS
from tau_env.domains.telecom.tasks.user_script import derive_user_script


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


def test_generate__seed_changes_the_draw_and_train_test_are_disjoint():
    tasks_a, splits_a = generate(builtin_databases(), seed=1)
    tasks_b, splits_b = generate(builtin_databases(), seed=2)
    assert splits_a != splits_b
    for tasks, splits in ((tasks_a, splits_a), (tasks_b, splits_b)):
        by_id = {task.id: task for task in tasks}
        combos = {
            split: {task_id.split("[PERSONA")[0] for task_id in splits[split]}
            for split in ("train", "test")
        }
        assert not combos["train"] & combos["test"]  # no issue combination in both splits
        for split in ("train", "test"):
            intents = Counter(task_id.split("]")[0][1:] for task_id in splits[split])
            assert set(intents) == set(INTENTS)
            unfixable = sum("ACTION" in by_id[i].reward_basis for i in splits[split])
            assert 0 < unfixable < len(splits[split]) / 2


def test_tasks__carry_gold_plan_assertions_and_user_script():
    for task in tau_env.load_domain("telecom").tasks:
        script = task.user_script
        assert script is not None and script.goal_checks and script.facts["phone_number"]
        assert task.gold_actions and task.evaluation_criteria.env_assertions
        transfer = [a.name for a in task.gold_actions] == ["transfer_to_human_agents"]
        assert script.expects_transfer == transfer == ("ACTION" in task.reward_basis)
        assert task.initial_state.initialization_actions[0].func_name == "set_user_info"
        assert task.ticket and script.facts["full_name"] in task.ticket


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


def test_user_script__derived_for_official_tasks(data_dir):
    tasks = {t.id: t for t in tau_env.load_tasks("telecom", data_dir=data_dir, split="full")}
    rng = random.Random(0)
    for task in rng.sample(sorted(tasks.values(), key=lambda t: t.id), 200):
        script = derive_user_script(task)
        intent = task.id.split("]")[0][1:]
        assert script.goal_checks == list(INTENTS[intent].goal_checks)
        assert (
            script.facts["name"] == "John Smith" and script.facts["phone_number"] == "555-123-2002"
        )
        assert script.expects_transfer == ("ACTION" in task.reward_basis)
    service = tasks["[service_issue]overdue_bill_suspension[PERSONA:Easy]"]
    script = derive_user_script(service)
    assert "payment" in script.accepts and script.goal_checks[0].tool == "check_status_bar"
    assert "Thanks" in script.closing
    data = next(t for t in tasks.values() if t.id.startswith("[mobile_data_issue]user_abroad"))
    assert derive_user_script(data).facts["location"] == "abroad in France"
    assert "refuel" in derive_user_script(data).accepts
    unfixable = next(t for t in tasks.values() if "lock_sim_card_pin" in t.id)
    assert derive_user_script(unfixable).expects_transfer


def test_user_script__goal_checks_match_the_tool_outputs():
    # The scripted user's probes must read the success texts of the real tools.
    from tests.domains.telecom.conftest import call

    world = tau_env.load_domain("telecom").new_world(seed=0)
    for intent in INTENTS.values():
        (check,) = intent.goal_checks
        assert check.expect in call(world, "user", check.tool, **check.arguments)
    world.run_env_function("user", "turn_airplane_mode_on", {})
    for intent in INTENTS.values():
        (check,) = intent.goal_checks
        assert check.expect not in call(world, "user", check.tool, **check.arguments)


def test_user_script__none_for_ids_of_other_domains():
    task = tau_env.load_domain("mock").tasks[0]
    assert derive_user_script(task) is task.user_script  # a task's own script wins
    assert derive_user_script(task.model_copy(update={"user_script": None})) is None
