"""The airline view's reading of passenger updates, group sizes and bag prices (issue 45)."""

import pytest

from tau_env.actions import SendMessage
from tau_env.baselines.rl.desk_manual import DeskPolicy
from tau_env.baselines.rl.evaluate import evaluate
from tau_env.wrappers.rl import make_featurized_env
from tau_env.wrappers.rl.airline_belief import AirlineBelief, passenger_change
from tau_env.wrappers.rl.airline_featurizer import AirlineFeaturizer, party_size, writes
from tests.families import of_family


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "the date of birth of Aria Reyes should be 1990-04-18.",
            (("Aria", "Reyes"), {"first_name": "Aria", "last_name": "Reyes", "dob": "1990-04-18"}),
        ),
        (
            "the date of birth of Aria Reyes is actually 1990-04-18. Thanks.",
            (("Aria", "Reyes"), {"first_name": "Aria", "last_name": "Reyes", "dob": "1990-04-18"}),
        ),
        (
            "My passenger change is Mateo Quint is replaced by Cole Quint (born 1989-02-24).",
            (("Mateo", "Quint"), {"first_name": "Cole", "last_name": "Quint", "dob": "1989-02-24"}),
        ),
        ("I want to add one more passenger to reservation E0E42B.", None),
    ],
)
def test_passenger_change__reads_the_passenger_and_the_new_details(text, expected):
    assert passenger_change(text) == expected


def _belief_with_reservation(opening):
    belief = AirlineBelief()
    belief.read_user_text(opening)
    belief.facts["reservation_id"] = "YCWIPL"
    belief.reservations["YCWIPL"] = {
        "reservation_id": "YCWIPL",
        "passengers": [
            {"first_name": "Aria", "last_name": "Reyes", "dob": "1991-01-01"},
            {"first_name": "Alma", "last_name": "Park", "dob": "1959-05-01"},
        ],
    }
    return belief


def test_passenger_update__changes_only_that_passenger_and_keeps_the_others():
    belief = _belief_with_reservation(
        "One passenger's details on my reservation YCWIPL need to be changed: the date of "
        "birth of Aria Reyes ought to be 1990-04-18."
    )
    assert belief.intents == {"passenger_details"}
    [call] = writes(belief)
    assert call is not None and call.name == "update_reservation_passengers"
    assert call.arguments == {
        "reservation_id": "YCWIPL",
        "passengers": [
            {"first_name": "Aria", "last_name": "Reyes", "dob": "1990-04-18"},
            {"first_name": "Alma", "last_name": "Park", "dob": "1959-05-01"},
        ],
    }


def test_passenger_update__of_someone_not_on_the_reservation_is_unresolved():
    belief = _belief_with_reservation(
        "A passenger's info on my reservation YCWIPL need to be changed: Ivo Roth is replaced "
        "by Ana Roth (born 1979-05-22)."
    )
    assert writes(belief) == [None]


@pytest.mark.parametrize(
    "opening",
    [
        "I'm looking to book a one-way economy flight from MIA to MSP on 2024-05-22 for 6 of us.",
        "I'm hoping to book a one-way economy flight from CLT to DTW for a party of 6.",
        "I want to book a one-way economy flight for a group of 6 people.",
    ],
)
def test_group_booking__the_party_size_is_a_fact_the_view_states(opening):
    """The view states how many travel (a count), not that the five-passenger rule refuses."""
    featurizer = AirlineFeaturizer(max_turns=40, max_steps=200)
    featurizer.belief.read_user_text(opening)
    assert party_size(featurizer.belief) == 6
    features = dict(zip(featurizer.feature_names, featurizer.features(), strict=True))
    assert features["count:party_size"] == pytest.approx(0.6)


def _family(env, family):
    return [task.id for task in of_family(env.env.aec.tasks, family)]


@pytest.mark.parametrize("style", ["plain", "paraphrase", "novice"])
@pytest.mark.parametrize("family", ["update_passenger", "add_bags", "book_refused"])
def test_manual_policy__solves_the_families_the_view_now_covers(family, style):
    env = make_featurized_env("airline", split="base", style=style)
    ids = _family(env, family)
    assert len(ids) >= 8
    evaluation = evaluate(DeskPolicy(env.feature_names, env.template_names), env, ids)
    assert evaluation.pass_hat(1) == 1.0


def test_added_bags__the_price_is_told_once_and_as_quoted():
    """The cost is quoted before the change; after it, the records hold the new total and
    the cost is not recomputed from them (it would read $0)."""
    env = make_featurized_env("airline", split="base", style="plain")
    policy = DeskPolicy(env.feature_names, env.template_names)
    bags = of_family(env.env.aec.tasks, "add_bags")
    task = next(t for t in bags if t.evaluation_criteria.communicate_info)  # bags that cost
    (cost,) = task.evaluation_criteria.communicate_info
    features, _ = env.reset(seed=0, options={"task_id": task.id})
    told, done = [], False
    while not done:
        index = policy(features, env.action_masks())
        if env.template_names[index] == "tell":
            actions = env.featurizer.templates[index].build(env.featurizer.belief)
            told += [a.content for a in actions if isinstance(a, SendMessage)]
        features, reward, terminated, truncated, _ = env.step(index)
        done = terminated or truncated
    assert reward == 1.0
    assert told and all(f"The added bags cost ${cost}." in text for text in told)
    assert not any("$0" in text for text in told)
