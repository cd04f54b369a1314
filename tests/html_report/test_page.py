import base64
import hashlib
import html
import json
import re
import sqlite3
import sys

import pytest

from tau_env.cli.main import main
from tau_env.errors import TauEnvError
from tau_env.html_report import build_html_report, failure_breakdown, write_html_report
from tau_env.rollout import run_report
from tau_env.rollout.report import IncompleteRun
from tau_env.store import ResultStore
from tests.html_report.conftest import HOSTILE

SCRIPTS = re.compile(r"<script\b([^>]*)>(.*?)</script>", re.S | re.I)


def embedded_episodes(page):
    (data,) = [body for attrs, body in SCRIPTS.findall(page) if "application/json" in attrs]
    return json.loads(data)


def page_of(store, run_ids=None):
    ids = run_ids or [run.run_id for run in store.runs()]
    return build_html_report(store, [run_report(store, run_id) for run_id in ids])


def test_cli__report_html_writes_one_page_for_all_runs(runs_store, tmp_path, capsys):
    target = tmp_path / "out" / "report.html"
    code = main(["report", "--store", str(runs_store), "--all", "--quiet", "--html", str(target)])
    assert code == 0
    assert str(target) in capsys.readouterr().err
    page = target.read_text()
    assert page.startswith("<!DOCTYPE html>")
    assert page.count("<figure class=chart") == 2  # telecom, mock
    assert page.count("<section class=run ") == 3
    for run_id in ("telecom-oracle", "mock-oracle", "mock-random"):
        assert f"<h2>{run_id}</h2>" in page


def test_page__one_chart_per_domain_with_a_line_per_run(store):
    page = page_of(store)
    charts = re.findall(r'<figure class=chart data-domain="([^"]*)">(.*?)</figure>', page, re.S)
    assert [domain for domain, _ in charts] == ["telecom", "mock"]
    mock_svg = charts[1][1]
    assert mock_svg.startswith("<svg") and "mock-oracle" in mock_svg and "mock-random" in mock_svg
    assert "telecom-oracle" not in mock_svg
    # one plotted line (a path with markers) per run: matplotlib ids them line2d_*
    lines = set(re.findall(r'<g id="(line2d_\d+)">\s*<path d="M', mock_svg))
    assert len(lines) >= 2


def test_page__task_table_links_every_trial_to_its_episode(store):
    page = page_of(store)
    episodes = embedded_episodes(page)
    expected = sum(store.episode_count(run.run_id) for run in store.runs())
    assert len(episodes) == expected
    rows = re.findall(
        r'<tr data-eps="([\d,]+)" data-pick=(\d+)><th><button class=task[^>]*>(.*?)</button>', page
    )
    assert len(rows) == sum(len(run_report(store, r.run_id).tasks) for r in store.runs())
    for indices, pick, task_id in rows:
        picked = [episodes[int(i)] for i in indices.split(",")]
        assert {e["task"] for e in picked} == {html.unescape(task_id)}
        assert [e["trial"] for e in picked] == list(range(len(picked)))
        failing = [e["trial"] for e in picked if not e["success"]]
        assert int(pick) == (failing[0] if failing else 0)
    assert page.count('button class="trial ') == len(episodes)


def test_page__failure_breakdown_matches_the_stored_grades(store):
    page = page_of(store, ["mock-random"])
    records = list(store.episodes("mock-random"))
    breakdown = failure_breakdown(records)
    assert breakdown.failed > 0, "the random agent should fail some mock tasks"
    assert f"({breakdown.failed} of {breakdown.episodes} failed)" in page
    for name, count in breakdown.by_grader.items():
        assert f"<tr><th>{html.escape(name)}</th><td class=num>{count}</td>" in page
    for reason, ended in breakdown.by_termination.items():
        cells = f"<td class=num>{ended.episodes}</td><td class=num>{ended.failed}</td>"
        assert f"<tr><th>{reason}</th>{cells}" in page


def test_page__needs_no_network_and_runs_only_its_own_script(store):
    page = page_of(store)
    assert not re.search(r"\b(src|href)\s*=\s*[\"']?(https?:|//)", page, re.I)
    assert "<link" not in page and "@import" not in page
    assert not re.search(r"url\((?!#)", page)  # only in-page references (SVG clip paths)
    scripts = [body for attrs, body in SCRIPTS.findall(page) if "application/json" not in attrs]
    assert len(scripts) == 1
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page).group(1)
    assert "default-src 'none'" in policy and f"script-src 'sha256-{digest}'" in policy


def test_page__hostile_store_text_is_escaped_everywhere(hostile_store):
    page = page_of(hostile_store)
    assert len(SCRIPTS.findall(page)) == 2  # the data block and the page's script, no more
    assert page.lower().count("<script") == 2
    assert "<img" not in page and "<!-- '" not in page
    assert html.escape(HOSTILE) in page  # shown as text in tables and headings
    episodes = embedded_episodes(page)
    assert episodes[0]["messages"][0]["content"] == HOSTILE  # the JSON round-trips exactly
    assert episodes[0]["grade"]["note"] == HOSTILE


def test_page__refuses_an_incomplete_run(tmp_path, capsys):
    partial = tmp_path / "partial.sqlite"
    args = ["--domain", "mock", "--tasks", "create_task", "--trials", "2", "--run", "p"]
    assert main(["run", *args, "--store", str(partial), "--no-progress"]) == 0
    with sqlite3.connect(partial) as db:
        db.execute("DELETE FROM episodes WHERE trial = 1")
    with ResultStore(partial) as store, pytest.raises(IncompleteRun):
        run_report(store, "p")
    target = tmp_path / "partial.html"
    assert main(["report", "--store", str(partial), "--html", str(target)]) == 2
    assert "incomplete" in capsys.readouterr().err
    assert not target.exists()


def test_page__without_matplotlib_names_the_extra(store, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    target = tmp_path / "r.html"
    with pytest.raises(TauEnvError, match=r"tau-env\[report\]"):
        write_html_report(store, [run_report(store, "mock-oracle")], target)
    assert not target.exists()


def test_page__shows_unjudged_episodes_apart_and_pass_hat_k_without_them(tmp_path):
    from tau_env.rollout import create_run, run
    from tests.rollout.conftest import mock_config

    with ResultStore(tmp_path / "s.sqlite") as opened:
        config = mock_config(trials=2, tasks=("create_task", "complete_task"))
        create_run(opened, config)
        run(opened, config)
        (record,) = [e for e in opened.episodes("r") if (e.task_id, e.trial) == ("create_task", 1)]
        grade = {**record.grade, "reward": None, "not_judged": ["NL_ASSERTION"]}
        opened._db.execute(  # as an episode whose NL assertions wait for a judge is stored
            "UPDATE episodes SET reward = NULL, body = ? WHERE task_id = 'create_task' "
            "AND trial = 1",
            (record.model_copy(update={"reward": None, "grade": grade}).model_dump_json(),),
        )
        report = run_report(opened, "r")
        page = build_html_report(opened, [report])
    assert report.not_judged == 1 and report.pass_hat_k == {1: 1.0}
    assert "1 not judged (left out of pass^k)" in page
    assert "(0 of 4 failed, 1 not judged)" in page
    assert 'class="trial unjudged"' in page and "trial 1: not judged" in page
    runs_row = page.split("<table class=runs>")[1].split("</table>")[0]
    assert "<th title='no reward yet" in runs_row and runs_row.count("<td class=num>1</td>") >= 1
