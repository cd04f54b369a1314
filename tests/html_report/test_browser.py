"""The HTML report in a real browser: headless Chromium (Debian packages) driven by selenium.

Screenshots are written to ``artifacts/html_report/`` at the repository root (git-ignored);
each test prints the paths it wrote (``pytest -s`` shows them).
"""

from tau_env.cli.main import main
from tau_env.html_report import build_html_report
from tau_env.html_report.views import seen_by
from tau_env.rollout import run_report
from tests.html_report.browser import console_errors, wait_ready
from tests.html_report.conftest import HOSTILE


def open_page(driver, path):
    driver.get_log("browser")  # drop what earlier pages logged
    driver.get(path.as_uri())
    wait_ready(driver)


def shoot(driver, artifacts, name):
    path = artifacts / name
    driver.save_screenshot(str(path))
    print(f"screenshot: {path}")
    assert path.stat().st_size > 0
    return path


def visible_texts(driver, list_id):
    script = f"return [...document.querySelectorAll('#{list_id} > li')].map(li => li.textContent)"
    return driver.execute_script(script)


def test_browser__report_loads_shows_charts_and_opens_a_conversation(
    chromium, runs_store, store, tmp_path, artifacts
):
    target = tmp_path / "report.html"
    assert (
        main(["report", "--store", str(runs_store), "--all", "--quiet", "--html", str(target)]) == 0
    )
    open_page(chromium, target)
    assert console_errors(chromium) == []
    charts = chromium.execute_script(
        "return [...document.querySelectorAll('#charts figure.chart > svg')]"
        ".map(svg => { const box = svg.getBoundingClientRect();"
        " return [box.width, box.height, svg.querySelectorAll('path').length]; })"
    )
    assert len(charts) == 2
    assert all(width > 100 and height > 100 and paths > 5 for width, height, paths in charts)
    shoot(chromium, artifacts, "report.png")

    # Click the first telecom task: its conversation opens with both sides' views.
    report = run_report(store, "telecom-oracle")
    task_id = report.tasks[0].task_id
    chromium.find_element("css selector", "#run-0 button.task").click()
    assert chromium.execute_script("return document.getElementById('viewer').open") is True
    title = chromium.find_element("id", "viewer-title").text
    assert task_id in title and "trial 0" in title
    episode = next(
        e for e in store.episodes("telecom-oracle") if (e.task_id, e.trial) == (task_id, 0)
    )
    agent_view = visible_texts(chromium, "agent-view")
    user_view = visible_texts(chromium, "user-view")
    assert len(agent_view) == sum("a" in seen_by(m) for m in episode.trajectory)
    assert len(user_view) == sum("u" in seen_by(m) for m in episode.trajectory)
    said = next(
        m["content"] for m in episode.trajectory if m["role"] == "user" and m.get("content")
    )
    assert any(said in text for text in agent_view) and any(said in text for text in user_view)
    user_call = next(
        call["name"]
        for m in episode.trajectory
        if m["role"] == "user"
        for call in m.get("tool_calls") or []
    )
    assert any(f"→ {user_call}(" in text for text in user_view)
    assert not any(f"→ {user_call}(" in text for text in agent_view)
    grade = chromium.find_element("id", "viewer-grade").text
    assert "reward 1.000" in grade and episode.termination in grade
    shoot(chromium, artifacts, "viewer.png")

    # A failed trial of the random agent: the viewer names the grader that failed.
    chromium.find_element("id", "viewer-close").click()
    failed = next(
        e for e in store.episodes("mock-random") if e.reward < 1 and e.grade.get("breakdown")
    )
    row = chromium.find_element(
        "xpath", f"//section[@id='run-2']//tr[th/button[text()='{failed.task_id}']]"
    )
    row.find_element("css selector", f"button.trial[data-trial='{failed.trial}']").click()
    assert (
        f"{failed.task_id} · trial {failed.trial}"
        in chromium.find_element("id", "viewer-title").text
    )
    chips = chromium.find_elements("css selector", "#viewer-grade .chip.fail")
    failing = [name for name, value in failed.grade["breakdown"].items() if value < 1]
    assert sorted(chip.text.split()[0] for chip in chips) == sorted(failing)
    # The trial tabs switch episodes in place.
    other = (failed.trial + 1) % 3
    chromium.find_element("css selector", f"#viewer-trials button[data-pick='{other}']").click()
    assert f"trial {other}" in chromium.find_element("id", "viewer-title").text
    assert console_errors(chromium) == []


def test_browser__hostile_store_text_stays_inert(chromium, hostile_store, tmp_path, artifacts):
    target = tmp_path / "hostile.html"
    target.write_text(build_html_report(hostile_store, [run_report(hostile_store, HOSTILE)]))
    open_page(chromium, target)
    chromium.find_element("css selector", "button.task").click()
    state = chromium.execute_script(
        "return [window.__pwned === undefined, document.scripts.length, document.images.length,"
        " document.getElementById('viewer').open]"
    )
    assert state == [True, 2, 0, True]
    agent_view = visible_texts(chromium, "agent-view")
    assert agent_view[0] == "agent" + HOSTILE  # shown as text, exactly
    assert any(f"→ {HOSTILE}(" in text for text in agent_view)
    assert HOSTILE in chromium.find_element("css selector", "button.task").text
    shoot(chromium, artifacts, "hostile.png")
    # A script or handler blocked by the page's CSP would have logged an error here.
    assert console_errors(chromium) == []


def test_browser__breakdown_tables_are_as_tall_as_their_rows(chromium, runs_store, tmp_path):
    # Side by side, the shorter table's rows used to stretch to the taller table's height.
    target = tmp_path / "report.html"
    assert (
        main(["report", "--store", str(runs_store), "--all", "--quiet", "--html", str(target)]) == 0
    )
    open_page(chromium, target)
    tables = chromium.execute_script(
        "return [...document.querySelectorAll('.breakdown table')].map(table => ["
        " table.className, table.tBodies[0].rows.length,"
        " table.tHead.rows[0].getBoundingClientRect().height,"
        " Math.max(...[...table.tBodies[0].rows].map(r => r.getBoundingClientRect().height))])"
    )
    assert {name for name, *_ in tables} == {"by-grader", "by-termination"}
    rows = {(name, count) for name, count, *_ in tables}
    assert any(a[1] != b[1] for a in rows for b in rows if a[0] != b[0]), "need unequal tables"
    for name, count, header, tallest in tables:
        assert tallest < 1.6 * header, f"{name} ({count} rows): a row is {tallest}px tall"
