"""The built-in data generator: deterministic, verified, policy-following, with sound splits."""

from collections import Counter
from importlib import resources

import pytest

import tau_env
from tau_env.data_files import BUILTIN_FILES
from tau_env.domains.airline.constants import FREE_BAGS, INSURANCE_FEE
from tau_env.domains.airline.generator import BUILTIN_SEED, generate, render_files, rules
from tau_env.domains.airline.generator.tasks import FAMILIES
from tau_env.domains.airline.generator.verify import GenerationError, builtin_domain, verify_tasks
from tau_env.state.database import Snapshot
from tests.families import of_family


@pytest.fixture(scope="module")
def builtin():
    return tau_env.load_domain("airline")


def test_generate__same_seed_gives_identical_data_and_tasks():
    first = render_files(generate(7, scale=0.2))
    second = render_files(generate(7, scale=0.2))
    assert first == second
    name = BUILTIN_FILES["db"]
    assert render_files(generate(8, scale=0.2))[name] != first[name]


def test_shipped_data__is_what_the_generator_produces():
    shipped = resources.files("tau_env.domains.airline").joinpath("data")
    produced = render_files(generate(BUILTIN_SEED))
    for name, text in produced.items():
        assert shipped.joinpath(name).read_text(encoding="utf-8") == text, name


def test_builtin_tasks__cover_every_family_with_at_least_200_tasks(builtin):
    counts = Counter(task.family for task in builtin.tasks)
    assert set(counts) == {family.__name__ for family, _ in FAMILIES}
    assert sum(counts.values()) >= 200
    assert min(counts.values()) >= 5


def test_splits__train_and_test_are_disjoint_and_cover_base_in_every_family(builtin):
    splits = builtin.data.splits
    train, test, base = set(splits["train"]), set(splits["test"]), set(splits["base"])
    assert not train & test
    assert train | test == base == {task.id for task in builtin.tasks}
    assert {builtin.task(i).family for i in train} == {builtin.task(i).family for i in test}
    assert 0.6 < len(train) / len(base) < 0.8


def test_scenarios__state_the_user_id_and_a_wish_and_carry_no_user_script(builtin):
    from tau_env.domains.airline.user_script import USER_VOCABULARY
    from tau_env.tasks.scenario_reading import read_scenario

    for task in builtin.tasks:
        script = read_scenario(str(task.user_scenario), USER_VOCABULARY.scenario).script
        assert script.opening and "user_script" not in task.model_dump(), task.id
        assert script.facts["user_id"] in task.user_scenario.instructions.known_info
        assert script.done_phrases or script.questions or script.after_refusal, task.id


def test_gold_plans__follow_the_policy(builtin):
    data = builtin.data.agent_snapshot.records
    flights, users, reservations = data["flights"], data["users"], data["reservations"]
    for task in builtin.tasks:
        for action in task.gold_actions:
            arguments = action.arguments
            if action.name == "cancel_reservation":
                reservation = reservations[arguments["reservation_id"]]
                reason = {
                    "cancel_insured": "health",
                    "cancel_airline_cancelled": "airline",
                }.get(task.family, "change")
                assert rules.cancellable(reservation, flights, reason), task.id
            if action.name == "send_certificate":
                reads = [a for a in task.gold_actions if a.name == "get_reservation_details"]
                reservation = reservations[reads[0].arguments["reservation_id"]]
                user = users[arguments["user_id"]]
                assert rules.compensation_eligible(user, reservation), task.id
                per_passenger = 100 if task.family == "compensation_cancelled" else 50
                assert arguments["amount"] == per_passenger * len(reservation.passengers)
            if action.name == "update_reservation_flights":
                reservation = reservations[arguments["reservation_id"]]
                assert not rules.has_flown(reservation, flights), task.id
                if arguments["cabin"] == reservation.cabin:
                    assert reservation.cabin != "basic_economy", task.id
                legs = [flights[leg["flight_number"]] for leg in arguments["flights"]]
                assert legs[0].origin == reservation.origin, task.id
            if action.name == "book_reservation":
                user = users[arguments["user_id"]]
                count = len(arguments["passengers"])
                free = FREE_BAGS[user.membership][arguments["cabin"]] * count
                assert arguments["nonfree_baggages"] == max(0, arguments["total_baggages"] - free)
                kinds = Counter(
                    user.payment_methods[p["payment_id"]].source
                    for p in arguments["payment_methods"]
                )
                assert kinds["certificate"] <= 1 and kinds["credit_card"] <= 1, task.id
                assert count <= 5


def test_generated_world__is_consistent(builtin):
    data = builtin.data.agent_snapshot.records
    for reservation in data["reservations"].values():
        user = data["users"][reservation.user_id]
        assert reservation.reservation_id in user.reservations
        count = len(reservation.passengers)
        free = FREE_BAGS[user.membership][reservation.cabin] * count
        assert reservation.nonfree_baggages == max(0, reservation.total_baggages - free)
        price = (
            sum(f.price for f in reservation.flights) * count + 50 * reservation.nonfree_baggages
        )
        price += INSURANCE_FEE * count if reservation.insurance == "yes" else 0
        assert reservation.payment_history[0].amount == price
        for flight in reservation.flights:
            record = data["flights"][flight.flight_number]
            assert (record.origin, record.destination) == (flight.origin, flight.destination)
            assert flight.date in record.dates


def test_verify__rejects_a_task_whose_gold_write_fails(builtin):
    task = of_family(builtin.tasks, "cancel_business")[0]
    broken = task.model_copy(
        update={
            "evaluation_criteria": task.evaluation_criteria.model_copy(
                update={
                    "actions": [
                        a.model_copy(update={"arguments": {"reservation_id": "NOPE00"}})
                        for a in task.gold_actions
                        if a.name == "cancel_reservation"
                    ]
                }
            )
        }
    )
    snapshot = builtin.data.agent_snapshot
    domain = builtin_domain(snapshot, [broken], {"base": [broken.id]}, builtin.policy)
    with pytest.raises(GenerationError, match=task.id):
        verify_tasks(domain)
    assert isinstance(snapshot, Snapshot)
