"""Agreement verdicts: same within 1e-6, differs, or not comparable when a side has no value."""

from __future__ import annotations

from tau_env.importing import Agreement, compare


def _grade(reward, **breakdown):
    return {"reward": reward, "breakdown": breakdown}


def _recorded(reward, basis=None, breakdown=None, **checks):
    return {"reward": reward, "reward_basis": basis, "reward_breakdown": breakdown, **checks}


def test_compare__same_and_differs_per_basis_component():
    recorded = _recorded(0.0, ["DB", "COMMUNICATE"], {"DB": 0.0, "COMMUNICATE": 1.0})
    verdicts = compare(recorded, _grade(1.0, DB=1.0, COMMUNICATE=1.0 - 1e-9))
    assert verdicts["reward"] == verdicts["DB"] == "differs"
    assert verdicts["COMMUNICATE"] == "same"
    assert verdicts["NL_ASSERTION"] == verdicts["ACTION"] == "not comparable"


def test_compare__nothing_to_compare_when_either_side_lacks_a_value():
    premature = _recorded(0.0)  # no basis, no breakdown
    assert compare(premature, _grade(0.0)) == {
        "reward": "same",
        "DB": "not comparable",
        "ENV_ASSERTION": "not comparable",
        "ACTION": "not comparable",
        "COMMUNICATE": "not comparable",
        "NL_ASSERTION": "not comparable",
    }
    unjudged = _grade(None, DB=1.0)  # NL waits for a judge: no reward, no NL value
    recorded = _recorded(1.0, ["DB", "NL_ASSERTION"], {"DB": 1.0, "NL_ASSERTION": 1.0})
    verdicts = compare(recorded, unjudged)
    assert (verdicts["reward"], verdicts["DB"], verdicts["NL_ASSERTION"]) == (
        "not comparable",
        "same",
        "not comparable",
    )
    assert set(compare(None, _grade(1.0)).values()) == {"not comparable"}


def test_compare__an_older_file_without_breakdown_is_read_from_its_checks():
    recorded = _recorded(
        0.0,
        ["DB", "ACTION"],
        db_check={"db_match": True, "db_reward": 1.0},
        action_checks=[{"action_match": True}, {"action_match": False}],
    )
    verdicts = compare(recorded, _grade(0.0, DB=1.0, ACTION=0.0))
    assert (verdicts["DB"], verdicts["ACTION"]) == ("same", "same")


def test_agreement__counts_and_lists_differing_tasks():
    agreement = Agreement()
    agreement.add("t1", 0, _recorded(1.0, ["DB"], {"DB": 1.0}), _grade(1.0, DB=1.0))
    agreement.add("t1", 1, _recorded(1.0, ["DB"], {"DB": 1.0}), _grade(0.0, DB=0.0))
    agreement.add("t2", 0, _recorded(1.0, ["DB"], {"DB": 1.0}), _grade(0.0, DB=0.0))
    assert agreement.regraded == 3
    assert agreement.counts["reward"] == {"same": 1, "differs": 2, "not comparable": 0}
    assert agreement.differing_tasks("DB") == {"t1": [1], "t2": [0]}
    assert agreement.to_json()["differences"][0] == {
        "task_id": "t1",
        "trial": 1,
        "component": "reward",
        "recorded": 1.0,
        "regraded": 0.0,
    }
