"""Options that size work or name things are checked before anything is allocated (issue 56).

Before: ``--trials 1000000000`` allocated 3 GB before the first episode, and ``--max-steps
10**30``, an undecodable ``--run``, ``--agent ""``, ``--agent-temperature nan`` or a deeply
nested ``--retrieval-options`` ended in exit 3 (an internal error).
"""

from __future__ import annotations

import pytest

from tau_env.cli.main import EXIT_ERROR, main
from tau_env.rollout.bounds import MAX_TRIALS


def _nested(depth: int) -> str:
    return '{"a": ' * depth + "1" + "}" * depth


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--trials", "1000000000"], f"--trials must be <= {MAX_TRIALS}"),
        (["--trials", "0"], "--trials must be >= 1"),
        (["--max-steps", str(10**30)], "--max-steps must be <= 100000, actually: a number of 31"),
        (["--max-errors", "-1"], "--max-errors must be >= 1"),
        (["--seed", str(2**64)], "--seed must be <="),
        (["--run", "bad\udcff"], "an argument is not UTF-8 text"),
        (["--agent", ""], "--agent cannot be empty"),
        (["--user", " "], "--user cannot be empty"),
        (["--agent-temperature", "nan"], "--agent-temperature must be from 0 to 2"),
        (["--user-temperature", "inf"], "--user-temperature must be from 0 to 2"),
        (["--retrieval-options", _nested(3_000)], "nested deeper than"),
        (["--concurrency", "10000000000"], "--concurrency must be <="),
        (["--workers", "100000"], "--workers must be <="),
    ],
    ids=lambda value: value[0] if isinstance(value, list) else None,
)
def test_run__a_bad_option_is_one_line_exit_2_and_writes_nothing(
    options, message, tmp_path, capsys
):
    store = tmp_path / "runs.sqlite"
    try:
        code = main(["run", "--domain", "mock", "--store", str(store), *options])
    except SystemExit as exit_:  # argparse's own usage error (its type refused the text)
        code = exit_.code
    error = capsys.readouterr().err
    assert code == EXIT_ERROR
    last = error.strip().splitlines()[-1]
    assert message in last and len(last) < 300, error
    assert not store.exists()


def test_run__more_episodes_than_one_run_holds_is_refused(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("tau_env.cli.run.MAX_EPISODES", 15)  # mock: 10 tasks x 2 trials = 20
    store = tmp_path / "runs.sqlite"
    code = main(["run", "--domain", "mock", "--store", str(store), "--trials", "2"])
    assert code == EXIT_ERROR
    assert "10 tasks x 2 trials is more than 15 episodes" in capsys.readouterr().err
    assert not store.exists()
