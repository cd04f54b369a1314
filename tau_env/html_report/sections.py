"""The page's server-rendered parts: the runs table, each run's failure breakdown and task table.

Every string that comes from the store (run ids, task ids, participant names, error messages)
goes through `text`, which escapes it for HTML text and attribute values alike. Conversations
are not rendered here: the page's script draws the selected episode from the embedded JSON.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

from tau_env.html_report.breakdown import FailureBreakdown
from tau_env.rollout.modes import has_user
from tau_env.rollout.report import RunReport
from tau_env.store.records import FailureRecord

__all__ = ["breakdown_tables", "failed_attempts", "runs_table", "task_table", "text"]


def text(value: object) -> str:
    """Any value as escaped HTML text (safe inside element content and quoted attributes)."""
    return html.escape(str(value), quote=True)


def _fraction(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _user(report: RunReport) -> str:
    return report.config.user.describe() if has_user(report.config.mode) else "none"


def runs_table(reports: Sequence[RunReport], anchors: Sequence[str]) -> str:
    """One row per run: who played, how many episodes, average reward and pass^k."""
    max_k = max(report.config.trials for report in reports)
    head = "".join(f"<th>pass^{k}</th>" for k in range(1, max_k + 1))
    rows = []
    for report, anchor in zip(reports, anchors, strict=True):
        values = "".join(
            f"<td class=num>{_fraction(report.pass_hat_k[k])}</td>"
            if k in report.pass_hat_k
            else "<td></td>"
            for k in range(1, max_k + 1)
        )
        config = report.config
        rows.append(
            f'<tr><th><a href="#{anchor}">{text(report.run_id)}</a></th>'
            f"<td>{text(report.domain)}</td><td>{text(config.agent.describe())}</td>"
            f"<td>{text(_user(report))}</td><td>{text(config.mode)}</td>"
            f"<td class=num>{len(report.tasks)} × {config.trials}</td>"
            f"<td class=num>{_fraction(report.average_reward)}</td>{values}"
            f"<td class=num>{report.failed_attempts}</td>"
            f"<td class=num>{report.not_judged}</td></tr>"
        )
    return (
        "<table class=runs><thead><tr><th>run</th><th>domain</th><th>agent</th><th>user</th>"
        f"<th>mode</th><th>tasks × trials</th><th>avg reward</th>{head}"
        "<th>failed attempts</th><th title='no reward yet: NL assertions wait for a judge; "
        "left out of pass^k'>not judged</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )


def breakdown_tables(breakdown: FailureBreakdown) -> str:
    """Failures by grader, and episodes and failures by termination reason."""
    failed = breakdown.failed
    if failed:
        grader_rows = "".join(
            f"<tr><th>{text(name)}</th><td class=num>{count}</td>"
            f"<td class=num>{count / failed:.0%}</td></tr>"
            for name, count in breakdown.by_grader.items()
        )
    else:
        grader_rows = "<tr><td colspan=3>no failed episode</td></tr>"
    termination_rows = "".join(
        f"<tr><th>{text(reason)}</th><td class=num>{count.episodes}</td>"
        f"<td class=num>{count.failed}</td></tr>"
        for reason, count in breakdown.by_termination.items()
    )
    return (
        "<div class=breakdown>"
        f"<table class=by-grader><caption>Failed episodes by grader ({failed} of "
        f"{breakdown.episodes} failed"
        + (f", {breakdown.not_judged} not judged" if breakdown.not_judged else "")
        + ")</caption><thead><tr><th>grader</th><th>failed</th>"
        f"<th>of failures</th></tr></thead><tbody>{grader_rows}</tbody></table>"
        "<table class=by-termination><caption>Episodes by termination reason</caption>"
        "<thead><tr><th>termination</th><th>episodes</th><th>failed</th></tr></thead>"
        f"<tbody>{termination_rows}</tbody></table></div>"
    )


def failed_attempts(failures: Sequence[FailureRecord]) -> str:
    """The attempts that produced no episode (retried since), folded away; empty when none."""
    if not failures:
        return ""
    rows = "".join(
        f"<tr><td>{text(f.kind)}</td><td>{text(f.task_id)}</td><td class=num>{f.trial}</td>"
        f"<td><code>{text(f.error)}</code></td></tr>"
        for f in failures
    )
    return (
        f"<details class=attempts><summary>{len(failures)} failed attempts (no episode; "
        "retried and completed since, never counted)</summary><table><thead><tr><th>kind</th>"
        "<th>task</th><th>trial</th><th>error</th></tr></thead>"
        f"<tbody>{rows}</tbody></table></details>"
    )


def task_table(
    report: RunReport,
    episode_index: Mapping[tuple[str, int], int],
    failed_graders: Mapping[tuple[str, int], Sequence[str]],
    terminations: Mapping[tuple[str, int], str],
) -> str:
    """Tasks by row: the task (opens its conversation), its trials' outcomes and its pass^k.

    Args:
        report: The run.
        episode_index: (task, trial) -> the episode's index in the embedded JSON.
        failed_graders: (task, trial) -> the basis components that failed.
        terminations: (task, trial) -> termination reason.
    """
    trials = report.config.trials
    ks = list(report.pass_hat_k)
    head = "".join(f"<th>{t}</th>" for t in range(trials)) + "".join(
        f"<th>pass^{k}</th>" for k in ks
    )
    rows = []
    for task in report.tasks:
        played = dict(zip(task.trial_indices, task.rewards, strict=True))
        indices = [episode_index[(task.task_id, trial)] for trial in played]
        failing = [
            position
            for position, reward in enumerate(played.values())
            if reward is not None and reward < 1 - 1e-6
        ]
        cells = []
        for trial in range(trials):
            key = (task.task_id, trial)
            if trial not in played:  # an imported run's simulation that has no episode
                why = report.left_out.get(key, "the file holds no simulation of it")
                cells.append(
                    f'<td><span class="trial left-out" title="{text(f"trial {trial}: {why}")}">'
                    "–</span></td>"
                )
                continue
            reward = played[trial]
            position = list(played).index(trial)
            if reward is None:
                title = f"trial {trial}: not judged (NL assertions wait for a judge)"
                outcome, mark = "unjudged", "?"
            else:
                passed = position not in failing
                why = ", ".join(failed_graders[key]) or terminations[key]
                title = f"trial {trial}: reward {reward:.3f}, {terminations[key]}" + (
                    "" if passed else f"; failed: {why}"
                )
                outcome, mark = ("pass", "✓") if passed else ("fail", "✗")
            cells.append(
                f'<td><button class="trial {outcome}" data-trial={position} '
                f'title="{text(title)}">{mark}</button></td>'
            )
        values = "".join(f"<td class=num>{_fraction(task.pass_hat_k.get(k))}</td>" for k in ks)
        pick = failing[0] if failing else 0
        name = (
            f'<button class=task title="open the conversation">{text(task.task_id)}</button>'
            if indices
            else text(task.task_id)
        )
        rows.append(
            f'<tr data-eps="{",".join(map(str, indices))}" data-pick={pick}>'
            f"<th>{name}</th><td class=num>{task.successes}/{len(played)}</td>"
            f"{''.join(cells)}{values}</tr>"
        )
    return (
        f"<table class=tasks><thead><tr><th>task</th><th>passed</th>{head}</tr></thead>"
        "<tbody>" + "".join(rows) + "</tbody></table>"
    )
