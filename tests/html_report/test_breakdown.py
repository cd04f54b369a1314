import pytest

import tau_env
from tau_env.baselines.oracle import OracleAgent
from tau_env.episode_runner import run_episode
from tau_env.html_report.breakdown import NOT_GRADED, UNATTRIBUTED, failure_breakdown
from tau_env.html_report.views import episode_payload, seen_by
from tau_env.loader import load_tasks
from tau_env.wrappers.users import GoldUser
from tests.html_report.conftest import both_act
from tests.store.records import episode_record


def _record(task_id, trial, reward, termination, grade):
    return episode_record(task_id, trial, reward, termination=termination, grade=grade)


def _graded(reward, breakdown, termination="user_stop"):
    return {"reward": reward, "reward_basis": list(breakdown), "breakdown": breakdown}


def test_failure_breakdown__counts_failed_graders_and_terminations():
    records = [
        _record("a", 0, 1.0, "user_stop", _graded(1.0, {"DB": 1.0, "COMMUNICATE": 1.0})),
        _record("a", 1, 0.0, "user_stop", _graded(0.0, {"DB": 0.0, "COMMUNICATE": 1.0})),
        _record("b", 0, 0.0, "agent_stop", _graded(0.0, {"DB": 0.0, "COMMUNICATE": 0.0})),
        _record("b", 1, 0.0, "max_steps", {"reward": 0.0, "reward_basis": None}),
        _record("c", 0, 0.0, "too_many_errors", {"reward": 0.0}),
        _record("c", 1, 0.0, "user_stop", _graded(0.0, {})),
    ]
    result = failure_breakdown(records)
    assert (result.episodes, result.failed) == (6, 5)
    assert result.by_grader == {"DB": 2, NOT_GRADED: 2, "COMMUNICATE": 1, UNATTRIBUTED: 1}
    assert list(result.by_grader)[:2] == ["DB", NOT_GRADED]  # most frequent first
    ends = {reason: (c.episodes, c.failed) for reason, c in result.by_termination.items()}
    assert ends == {
        "user_stop": (3, 2),
        "agent_stop": (1, 1),
        "max_steps": (1, 1),
        "too_many_errors": (1, 1),
    }


def test_failure_breakdown__of_a_clean_run_is_empty():
    records = [_record("a", t, 1.0, "user_stop", _graded(1.0, {"DB": 1.0})) for t in range(3)]
    result = failure_breakdown(records)
    assert (result.episodes, result.failed, result.by_grader) == (3, 0, {})


@pytest.mark.parametrize(
    ("message", "seen"),
    [
        ({"role": "assistant", "content": "hi"}, "au"),
        ({"role": "assistant", "tool_calls": [{"name": "x"}]}, "a"),
        ({"role": "assistant", "content": "t", "tool_calls": [{"name": "x"}]}, "a"),
        ({"role": "user", "content": "hello"}, "au"),
        ({"role": "user", "tool_calls": [{"name": "toggle", "requestor": "user"}]}, "u"),
        ({"role": "tool", "content": "ok"}, "a"),
        ({"role": "tool", "content": "ok", "requestor": "assistant"}, "a"),
        ({"role": "tool", "content": "ok", "requestor": "user"}, "u"),
    ],
)
def test_seen_by__follows_the_visibility_rule(message, seen):
    assert seen_by(message) == seen


def test_seen_by__rebuilds_each_sides_view_of_a_real_telecom_episode():
    # The gold user calls its own device tools, so both sides have private messages.
    env = tau_env.make_env("telecom")
    task = next(t for t in load_tasks("telecom") if both_act(t))
    run_episode(env, OracleAgent, GoldUser, task_id=task.id, seed=0)
    raw = env.unwrapped
    stored = [m.model_dump(mode="json", exclude_none=True) for m in raw.conversation.trajectory]
    for side, tag in (("agent", "a"), ("user", "u")):
        expected = [m.model_dump(mode="json", exclude_none=True) for m in raw.view(side).history]
        assert [m for m in stored if tag in seen_by(m)] == expected
    assert any(seen_by(m) == "u" for m in stored), "the episode has no user-only message"
    assert any(seen_by(m) == "a" for m in stored), "the episode has no agent-only message"


def test_episode_payload__tags_every_message_and_keeps_the_grade():
    grade = _graded(0.0, {"DB": 0.0})
    record = _record("a", 2, 0.0, "user_stop", grade).model_copy(
        update={
            "trajectory": [
                {"role": "assistant", "content": "hi"},
                {"role": "tool", "content": "r", "requestor": "user"},
            ]
        }
    )
    payload = episode_payload(record)
    assert [m["seen"] for m in payload["messages"]] == ["au", "u"]
    assert payload["grade"] == grade
    assert (payload["task"], payload["trial"], payload["success"]) == ("a", 2, False)


def test_failure_breakdown__unjudged_episodes_are_neither_passes_nor_failures():
    waiting = {"reward": None, "reward_basis": ["DB", "NL_ASSERTION"], "breakdown": {"DB": 1.0}}
    records = [
        _record("a", 0, None, "user_stop", {**waiting, "not_judged": ["NL_ASSERTION"]}),
        _record("a", 1, 0.0, "user_stop", _graded(0.0, {"DB": 0.0, "NL_ASSERTION": 1.0})),
    ]
    result = failure_breakdown(records)
    assert (result.episodes, result.failed, result.not_judged) == (2, 1, 1)
    assert result.by_grader == {"DB": 1}
    assert episode_payload(records[0])["reward"] is None
    assert episode_payload(records[0])["success"] is False
