"""The retrieval variant and the data source are part of what a run is and says (issue 42).

Before, runs with different --retrieval variants got the same id stem and identical report
rows, and neither the report, the JSON report nor the export said the variant or whether the
official data was used.
"""

import json
import sqlite3

from tau_env.cli.main import main

BANKING = ["run", "--domain", "banking_knowledge", "--no-progress", "--quiet"]


def _first_task(capsys, *extra):
    capsys.readouterr()
    assert main(["tasks", "--domain", *extra, "--json"]) == 0
    return json.loads(capsys.readouterr().out)[0]["id"]


def test_retrieval_variants__named_in_id_config_rows_json_and_export(tmp_path, capsys):
    store = str(tmp_path / "runs.sqlite")
    task = _first_task(capsys, "banking_knowledge")
    for variant in ("bm25", "grep_only", None):
        argv = [*BANKING, "--tasks", task, "--store", store]
        assert main([*argv, *(["--retrieval", variant] if variant else [])]) == 0
    capsys.readouterr()
    ids = [
        row[0]
        for row in sqlite3.connect(store).execute("SELECT run_id FROM runs ORDER BY created_at")
    ]
    assert [i.split("-oracle-")[0] for i in ids] == [
        "banking_knowledge-bm25",
        "banking_knowledge-grep_only",
        "banking_knowledge-bm25_grep",  # the default variant, named
    ]
    configs = [
        json.loads(c)
        for (c,) in sqlite3.connect(store).execute("SELECT config FROM runs ORDER BY created_at")
    ]
    assert [c["retrieval"] for c in configs] == ["bm25", "grep_only", "bm25_grep"]
    assert main(["report", "--all", "--store", store]) == 0
    out = capsys.readouterr().out
    assert ", built-in data, retrieval grep_only (store" in out
    rows = out.split("per domain:\n", 1)[1].splitlines()
    assert rows[0].split()[-3:] == ["data", "retrieval", "run"]
    assert sorted(row.split()[-2] for row in rows[1:]) == ["bm25", "bm25_grep", "grep_only"]
    assert len(set(rows[1:])) == 3
    assert main(["report", "--all", "--store", store, "--json"]) == 0
    reports = json.loads(capsys.readouterr().out)
    assert [(r["retrieval"], r["data"]) for r in reports] == [
        ("bm25", "built-in"),
        ("grep_only", "built-in"),
        ("bm25_grep", "built-in"),
    ]
    out_file = tmp_path / "results.json"
    assert main(["export", "--store", store, "--run", ids[1], "-o", str(out_file)]) == 0
    info = json.loads(out_file.read_text())["info"]
    assert (info["retrieval_variant"], info["data_source"]) == ("grep_only", "built-in")


def test_data_source__official_runs_say_so_everywhere(data_dir, tmp_path, capsys):
    store = str(tmp_path / "runs.sqlite")
    official = ["--data-dir", str(data_dir)]
    common = ["run", "--domain", "mock", "--store", store, "--quiet", "--tasks"]
    assert main([*common, _first_task(capsys, "mock")]) == 0
    assert main([*common, _first_task(capsys, "mock", *official), *official]) == 0
    capsys.readouterr()
    ids = [
        row[0]
        for row in sqlite3.connect(store).execute("SELECT run_id FROM runs ORDER BY created_at")
    ]
    assert ids[0].startswith("mock-oracle-") and ids[1].startswith("mock-official-oracle-")
    assert main(["report", "--all", "--store", store, "--json"]) == 0
    reports = json.loads(capsys.readouterr().out)
    assert [(r["data"], r["retrieval"]) for r in reports] == [
        ("built-in", None),
        ("official", None),
    ]
    assert reports[1]["data_dir"] == str(data_dir.resolve())
    assert main(["report", "--all", "--store", store]) == 0
    out = capsys.readouterr().out
    assert "scripted, official data (store" in out and "scripted, built-in data (store" in out
    out_file = tmp_path / "results.json"
    assert main(["export", "--store", store, "--run", ids[1], "-o", str(out_file)]) == 0
    assert json.loads(out_file.read_text())["info"]["data_source"] == "official"
