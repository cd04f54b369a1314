"""The self-contained HTML report of stored runs: one file, no network needed to open it.

The page holds the pass^k charts (inline SVG from matplotlib), a table of runs, and per run the
failure breakdown and the task table. Conversations are embedded once, as JSON in a
non-executed ``<script type="application/json">`` block, and drawn by the page's small inline
script only when a task is clicked: a 114-task x 4-trial run stays a few megabytes and opens
fast, instead of carrying thousands of pre-rendered messages in its DOM.

Safety: store text is escaped in the server-rendered parts, the JSON is escaped so that no
``</script>`` can end its block, and the script inserts store text with ``textContent`` only. On
top of that, a Content-Security-Policy allows no network at all and no script but the page's
own (pinned by its SHA-256), so even a missed escape could not run injected code.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from tau_env.errors import TauEnvError
from tau_env.html_report.breakdown import failed_graders, failure_breakdown
from tau_env.html_report.charts import Curve, pass_hat_k_svg
from tau_env.html_report.imported import imported_section
from tau_env.html_report.sections import (
    breakdown_tables,
    failed_attempts,
    runs_table,
    task_table,
    text,
)
from tau_env.html_report.views import episode_payload
from tau_env.rollout.report import RunReport
from tau_env.store.sqlite import ResultStore
from tau_env.utils.atomic_output import write_text_atomically
from tau_env.utils.strict_json import finite_only
from tau_env.utils.wording import counted

__all__ = ["build_html_report", "write_html_report"]

READY_MARK = "tau-report-ready"
"""The performance mark (and ``<html data-ready>``) the page sets once it is interactive."""

_VIEWER = """<dialog id=viewer aria-labelledby=viewer-title>
<header><h2 id=viewer-title></h2><nav id=viewer-trials aria-label=trials></nav>
<button id=viewer-close type=button>close</button></header>
<section id=viewer-grade></section>
<div class=views>
<section class=view><h3>Agent's view</h3><ol id=agent-view class=messages></ol></section>
<section class=view><h3>User's view</h3><ol id=user-view class=messages></ol></section>
</div></dialog>"""


def _asset(name: str) -> str:
    return resources.files("tau_env.html_report").joinpath("assets", name).read_text("utf-8")


def _script_json(value: Any) -> str:
    """JSON that cannot end (or comment out) the ``<script>`` block it is embedded in."""
    dumped = json.dumps(
        finite_only(value), ensure_ascii=False, separators=(",", ":"), allow_nan=False
    )
    return dumped.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def _charts(reports: Sequence[RunReport]) -> str:
    """One chart per domain, one line per run of that domain; charts sit side by side."""
    by_domain: dict[str, list[RunReport]] = {}
    for report in reports:
        by_domain.setdefault(report.domain, []).append(report)
    figures = []
    for number, (domain, runs) in enumerate(by_domain.items()):
        curves = [
            Curve(label=f"{run.config.agent.describe()} · {run.run_id}", pass_hat_k=run.pass_hat_k)
            for run in runs
        ]
        svg = pass_hat_k_svg(domain, curves, chart_id=f"chart{number}")
        figures.append(
            f'<figure class=chart data-domain="{text(domain)}">{svg}'
            f"<figcaption>{text(domain)}: pass^k against k, {len(runs)} run"
            f"{'' if len(runs) == 1 else 's'}</figcaption></figure>"
        )
    return "<div class=charts>" + "".join(figures) + "</div>"


def build_html_report(store: ResultStore, reports: Sequence[RunReport]) -> str:
    """The report page of some complete runs of a store, as one HTML document.

    Args:
        store: The store the runs are in (their episodes are read from it).
        reports: The runs' pass^k reports (`tau_env.rollout.run_report`), in page order.

    Raises:
        TauEnvError: No report was given, or matplotlib is missing.
    """
    if not reports:
        raise TauEnvError("an HTML report needs at least one run")
    episodes: list[dict[str, Any]] = []
    sections = []
    anchors = [f"run-{number}" for number in range(len(reports))]
    for report, anchor in zip(reports, anchors, strict=True):
        records = list(store.episodes(report.run_id))
        index: dict[tuple[str, int], int] = {}
        for record in records:
            index[(record.task_id, record.trial)] = len(episodes)
            episodes.append(episode_payload(record))
        keys = [(record.task_id, record.trial) for record in records]
        graders = {key: failed_graders(r.grade) for key, r in zip(keys, records, strict=True)}
        ends = {key: r.termination for key, r in zip(keys, records, strict=True)}
        config = report.config
        pass_1 = report.pass_hat_k.get(1)
        unjudged = (
            f" · {report.not_judged} not judged (left out of pass^k)" if report.not_judged else ""
        )
        judge = f" · judge {text(report.judge)}" if report.judge else ""
        task_set = f" · task set {text(report.task_set.describe())}" if report.task_set else ""
        sections.append(
            f'<section class=run id="{anchor}"><h2>{text(report.run_id)}</h2>'
            f"<p class=meta>{text(report.domain)} · agent {text(config.agent.describe())} · "
            f"{counted(len(report.tasks), 'task')} × {counted(config.trials, 'trial')} · pass^1 "
            f"{'n/a' if pass_1 is None else f'{pass_1:.3f}'}{unjudged}{judge}{task_set}</p>"
            + imported_section(report, records, store)
            + breakdown_tables(failure_breakdown(records))
            + failed_attempts(store.failures(report.run_id))
            + task_table(report, index, graders, ends)
            + "</section>"
        )
    script = _asset("report.js")
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    policy = f"default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-{digest}'"
    return (
        "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>"
        f'<meta http-equiv="Content-Security-Policy" content="{policy}">'
        '<meta name=viewport content="width=device-width, initial-scale=1">'
        f"<title>tau_env report: {text(', '.join(r.run_id for r in reports))}</title>"
        f"<style>{_asset('report.css')}</style></head><body>"
        f"<header><h1>tau_env report</h1><p class=meta>store {text(store.path)} · "
        f"{len(reports)} run{'' if len(reports) == 1 else 's'} · click a task to read its "
        "conversation</p></header>"
        f"<main><section id=charts><h2>pass^k against k</h2>{_charts(reports)}</section>"
        f"<section id=runs><h2>Runs</h2>{runs_table(reports, anchors)}</section>"
        + "".join(sections)
        + f"</main>{_VIEWER}"
        f'<script type="application/json" id=episodes>{_script_json(episodes)}</script>'
        f"<script>{script}</script></body></html>\n"
    )


def write_html_report(store: ResultStore, reports: Sequence[RunReport], path: str | Path) -> Path:
    """Write `build_html_report` to `path` (its folder is created); returns the path."""
    return write_text_atomically(path, build_html_report(store, reports))
