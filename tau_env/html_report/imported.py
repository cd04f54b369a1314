"""What only an imported run's section shows: its file, its agreement, what was left out.

How tau_env's grades agree with the rewards the file recorded is a table per check, with the
tasks that differ. Every string from the store or the file goes through `text` (escaped), as
everywhere on the page.
"""

from __future__ import annotations

from collections.abc import Sequence

from tau_env.html_report.sections import text
from tau_env.importing.agreement import COMPONENTS, agreement_of
from tau_env.rollout.report import RunReport
from tau_env.store.records import EpisodeRecord
from tau_env.store.sqlite import ResultStore

__all__ = ["imported_section"]


def imported_section(
    report: RunReport, records: Sequence[EpisodeRecord], store: ResultStore
) -> str:
    """The run's provenance and agreement table (empty for a run tau_env played)."""
    if report.imported_from is None:
        return ""
    agreement = agreement_of(records, store.imported_simulations(report.run_id))
    rows = []
    for component in COMPONENTS:
        counts = agreement.counts[component]
        differing = agreement.differing_tasks(component)
        listed = ", ".join(
            f"{task} ({', '.join(map(str, trials))})" for task, trials in differing.items()
        )
        rows.append(
            f"<tr><th>{text(component)}</th><td class=num>{counts['same']}</td>"
            f"<td class=num>{counts['differs']}</td>"
            f"<td class=num>{counts['not comparable']}</td><td>{text(listed)}</td></tr>"
        )
    left_out = "".join(
        f"<tr><td>{text(task)}</td><td class=num>{trial}</td><td>{text(reason)}</td></tr>"
        for (task, trial), reason in sorted(report.left_out.items())
    )
    unrecorded = (
        f"<tr><td colspan=2>{report.unrecorded} more</td><td>the file holds no simulation of "
        "them</td></tr>"
        if report.unrecorded
        else ""
    )
    left_table = (
        f"<details class=left-out><summary>{len(report.left_out) + report.unrecorded} "
        "simulations left out of pass^k (no episode)</summary><table><thead><tr><th>task</th>"
        f"<th>trial</th><th>why</th></tr></thead><tbody>{left_out}{unrecorded}</tbody></table>"
        "</details>"
        if left_out or unrecorded
        else ""
    )
    return (
        f"<p class=meta>imported from {text(report.imported_from)}; re-graded by tau_env</p>"
        "<table class=agreement><caption>Agreement with the recorded rewards "
        f"({agreement.regraded} simulations re-graded)</caption><thead><tr><th>check</th>"
        "<th>same</th><th>differs</th><th>not comparable</th><th>differing tasks (trials)</th>"
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table>" + left_table
    )
