"""The HTML section of a task-set audit (`tau_env.audit`), and a page holding such sections.

Same look as the run report (its stylesheet, its escaping): per audit a table of each
player's pass rate (official, and strict beside it when audited so), then a table with one
row per task a probe passes, marking which players pass it, and the count of tasks only the
oracle passes. The page has no script; a Content-Security-Policy allows no network at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from tau_env.audit.report import ORACLE_LABEL, AuditReport, PlayerRate
from tau_env.errors import TauEnvError
from tau_env.html_report.sections import text
from tau_env.utils.atomic_output import write_text_atomically

__all__ = ["audit_page", "audit_section", "write_audit_page"]


def _label(report: AuditReport, player: str) -> str:
    return ORACLE_LABEL if player not in report.probes else player


def _rate(rate: PlayerRate) -> str:
    if rate.rate is None:
        return "<td class=num>n/a</td>"
    unjudged = rate.tasks - rate.judged
    title = f"{rate.passed} of {rate.judged} judged tasks" + (
        f"; {unjudged} not judged" if unjudged else ""
    )
    return f'<td class=num title="{text(title)}">{rate.rate:.3f}</td>'


def _mark(outcome: bool | None) -> str:
    if outcome is None:
        return '<td class="mark unjudged" title="not judged">?</td>'
    if outcome:
        return '<td class="mark pass" title="passes">✓</td>'
    return '<td class="mark fail" title="fails">✗</td>'


def audit_section(report: AuditReport, anchor: str = "audit") -> str:
    """One audit as an HTML ``<section>``: rates per player, then the tasks probes pass."""
    readings = ("official", "strict") if report.grading == "strict" else ("official",)
    rates = {reading: report.rates(strict=reading == "strict") for reading in readings}
    head = "".join(f"<th>{reading} pass rate</th>" for reading in readings)
    rows = "".join(
        f"<tr><th>{text(_label(report, player))}</th>"
        + "".join(_rate(rates[reading][index]) for reading in readings)
        + "</tr>"
        for index, player in enumerate(report.players)
    )
    parts = [
        f'<section class=audit id="{text(anchor)}"><h2>Audit: {text(report.domain)}</h2>',
        f"<p class=meta>{text(report.env_id)} · data {text(report.data)} · split "
        f"{text(report.split or 'default')} · {len(report.tasks)} tasks · {text(report.user)} · "
        f"{text(report.grading)} grading"
        + (f" · judge {text(report.judge)}" if report.judge else "")
        + "</p>",
        f"<table class=rates><thead><tr><th>player</th>{head}</tr></thead><tbody>{rows}"
        "</tbody></table>",
    ]
    for reading in readings:
        strict = reading == "strict"
        passed = report.passed_by_probes(strict=strict)
        only = len(report.only_oracle(strict=strict))
        caption = (
            f"{reading}: {len(passed)} tasks a probe passes; {only} of {len(report.tasks)} "
            "tasks only the oracle passes"
        )
        if not passed:
            parts.append(f"<p>{text(caption)}.</p>")
            continue
        players = "".join(f"<th>{text(_label(report, p))}</th>" for p in report.players)
        outcomes = {task.task_id: task for task in report.tasks}
        body = "".join(
            f"<tr><th>{text(task_id)}</th>"
            + "".join(
                _mark(
                    (outcomes[task_id].strict or {} if strict else outcomes[task_id].passed).get(
                        player
                    )
                )
                for player in report.players
            )
            + "</tr>"
            for task_id in passed
        )
        parts.append(
            f"<table class=probes><caption>{text(caption)}</caption><thead><tr><th>task</th>"
            f"{players}</tr></thead><tbody>{body}</tbody></table>"
        )
    parts.append("</section>")
    return "".join(parts)


def audit_page(reports: Sequence[AuditReport]) -> str:
    """A self-contained page with one `audit_section` per report.

    Raises:
        TauEnvError: No report was given.
    """
    if not reports:
        raise TauEnvError("an audit page needs at least one audit")
    style = resources.files("tau_env.html_report").joinpath("assets", "report.css")
    sections = "".join(
        audit_section(report, f"audit-{number}") for number, report in enumerate(reports)
    )
    title = ", ".join(report.domain for report in reports)
    return (
        "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>"
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'\">"
        '<meta name=viewport content="width=device-width, initial-scale=1">'
        f"<title>tau_env audit: {text(title)}</title>"
        f"<style>{style.read_text('utf-8')}</style></head><body>"
        "<header><h1>tau_env task audit</h1><p class=meta>Each task played by simple probes "
        "that do not solve it and by the oracle (the gold plan), against the scripted user. "
        "A task a probe passes can be passed without doing its work.</p></header>"
        f"<main>{sections}</main></body></html>\n"
    )


def write_audit_page(reports: Sequence[AuditReport], path: str | Path) -> Path:
    """Write `audit_page` to `path` (its folder is created); returns the path."""
    return write_text_atomically(path, audit_page(reports))
