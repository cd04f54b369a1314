"""The audit's HTML section and page: the rates, the tasks probes pass, escaped text."""

import pytest

from tau_env.audit import ORACLE, TaskAudit
from tau_env.errors import TauEnvError
from tau_env.html_report.audit import audit_page, audit_section, write_audit_page
from tests.audit.reports import airline_report


def _report(grading="official", task_id="t<1>"):
    outcomes = {"refuse": True, ORACLE: True}
    return airline_report(
        grading,
        ["refuse", ORACLE],
        [
            TaskAudit(
                task_id=task_id,
                passed=outcomes,
                strict={"refuse": False, ORACLE: True} if grading == "strict" else None,
            ),
            TaskAudit(
                task_id="t2",
                passed={"refuse": False, ORACLE: True},
                strict={"refuse": False, ORACLE: True} if grading == "strict" else None,
            ),
        ],
    )


def test_section__rates_and_the_tasks_a_probe_passes():
    html = audit_section(_report())
    assert "<th>official pass rate</th>" in html and "strict pass rate" not in html
    assert '<td class=num title="1 of 2 judged tasks">0.500</td>' in html
    assert "oracle (gold plan)" in html
    assert "official: 1 tasks a probe passes; 1 of 2 tasks only the oracle passes" in html
    assert "t&lt;1&gt;" in html and "t<1>" not in html  # task ids are escaped


def test_section__strict_beside_official():
    html = audit_section(_report("strict"))
    assert "<th>official pass rate</th><th>strict pass rate</th>" in html
    assert "strict: 0 tasks a probe passes; 2 of 2 tasks only the oracle passes" in html


def test_page__self_contained_without_script(tmp_path):
    path = write_audit_page([_report(), _report("strict")], tmp_path / "a" / "audit.html")
    page = path.read_text()
    assert page.count("<section class=audit") == 2
    assert "default-src 'none'" in page and "<script" not in page
    with pytest.raises(TauEnvError, match="at least one audit"):
        audit_page([])
