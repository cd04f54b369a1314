"""The audit report: rates over judged tasks, the tasks probes pass, JSON and text."""

import pytest

from tau_env.audit import ORACLE, AuditReport, TaskAudit, render_text
from tests.audit.reports import airline_report


def _report(grading="official") -> AuditReport:
    def task(task_id, refuse, agree, oracle, strict=None):
        return TaskAudit(
            task_id=task_id,
            passed={"refuse": refuse, "agree": agree, ORACLE: oracle},
            strict=strict,
        )

    strict = grading == "strict"
    return airline_report(
        grading,
        ["refuse", "agree", ORACLE],
        [
            task("a", True, True, True, {"refuse": False, "agree": False, ORACLE: True}),
            task("b", False, True, True, {"refuse": False, "agree": True, ORACLE: True}),
            task("c", False, False, True, {"refuse": False, "agree": False, ORACLE: True}),
            task("d", None, None, None, {"refuse": None, "agree": None, ORACLE: None}),
            task("e", False, False, False, {"refuse": False, "agree": False, ORACLE: False}),
        ]
        if strict
        else [
            task("a", True, True, True),
            task("b", False, True, True),
            task("c", False, False, True),
            task("d", None, None, None),
            task("e", False, False, False),
        ],
    )


def test_rates__count_judged_tasks_only():
    report = _report()
    rates = {r.player: r for r in report.rates()}
    assert (rates["refuse"].passed, rates["refuse"].judged, rates["refuse"].tasks) == (1, 4, 5)
    assert report.rate("refuse") == 0.25 and report.rate("agree") == 0.5
    assert report.rate(ORACLE) == 0.75
    with pytest.raises(KeyError, match="no player 'nobody'"):
        report.rate("nobody")


def test_task_lists():
    report = _report()
    assert report.probes == ["refuse", "agree"]
    assert report.passed_by_probes() == {"a": ["refuse", "agree"], "b": ["agree"]}
    assert report.only_oracle() == ["c"]
    assert report.oracle_failures() == ["e"]


def test_report__strict_outcomes_exactly_when_strict():
    strict = _report("strict")
    with pytest.raises(ValueError, match="strict outcomes are required exactly when"):
        AuditReport.model_validate({**strict.model_dump(), "grading": "official"})


def test_strict__read_beside_the_official_outcomes():
    report = _report("strict")
    assert report.rate("agree", strict=True) == 0.25 and report.rate("agree") == 0.5
    assert report.passed_by_probes(strict=True) == {"b": ["agree"]}
    assert report.only_oracle(strict=True) == ["a", "c"]
    with pytest.raises(ValueError, match="no strict reading"):
        _report().rate("agree", strict=True)


def test_summary__json_with_both_readings_when_strict():
    summary = _report("strict").summary()
    assert summary["official"]["rates"]["agree"] == {"rate": 0.5, "passed": 2, "judged": 4}
    assert summary["strict"]["only_oracle"] == ["a", "c"]
    assert summary["tasks"][0]["passed"]["refuse"] is True
    assert "strict" not in _report().summary()


def test_render_text__groups_tasks_by_the_probes_that_pass_them():
    text = render_text(_report("strict"))
    assert "refuse              0.250 (1/4), 1 not judged" in text
    assert "oracle (gold plan)" in text
    assert "official: tasks a probe passes (2 of 5):" in text
    assert "  refuse, agree (1): a" in text and "  agree (1): b" in text
    assert "official: tasks the oracle fails (1): e" in text
    assert "strict: 2/5 tasks only the oracle passes" in text
