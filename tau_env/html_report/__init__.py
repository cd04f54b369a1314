"""The HTML report: pass^k charts, failure breakdowns and a conversation viewer in one file.

from tau_env.html_report import write_html_report
from tau_env.rollout import run_report
from tau_env.store import ResultStore

with ResultStore("runs.sqlite") as store:
    write_html_report(store, [run_report(store)], "report.html")

``tau-env report --store runs.sqlite --html report.html`` does the same from the command line.
Drawing the charts needs matplotlib (the ``report`` extra).
"""

from tau_env.html_report.breakdown import FailureBreakdown, failure_breakdown
from tau_env.html_report.page import READY_MARK, build_html_report, write_html_report

__all__ = [
    "READY_MARK",
    "FailureBreakdown",
    "build_html_report",
    "failure_breakdown",
    "write_html_report",
]
