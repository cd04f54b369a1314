"""Fuzzing `tau-env run`'s options (issue 56): any value of any option is taken or refused with
a message (exit 2), never an internal error (exit 3), and nothing is written.

The store named is a folder, so even a value that is taken stops before anything is played
(one line: the store is a folder); what is checked is that no value fails inside.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tau_env.cli.main import EXIT_ERROR, main
from tests.fuzzing import fuzz_settings

OPTIONS = [
    "--trials", "--seed", "--max-steps", "--max-errors", "--concurrency", "--workers",
    "--llm-concurrency", "--agent-temperature", "--user-temperature", "--run", "--agent",
    "--user", "--retrieval-options", "--tasks", "--split", "--domain", "--mode", "--grading",
    "--agent-api-base", "--judge-model", "--agent-model",
]  # fmt: skip

VALUES = st.one_of(
    st.sampled_from(
        [
            "0",
            "-1",
            "1",
            "nan",
            "inf",
            "-inf",
            "1e400",
            "",
            " ",
            "mock",
            "oracle",
            "x:y",
            ":",
            str(10**30),
            str(2**63),
            "9" * 5000,
            "bad\udcff",
            '{"a": ' * 500 + "1" + "}" * 500,
            "{}",
            "[]",
            "null",
            "http://",
            "user:pass@host",
            "telecom",
            "tau/mock-v0",
        ]
    ),
    st.integers().map(str),
    st.floats().map(repr),
    st.text(max_size=40),
)


@fuzz_settings(60)
@given(option=st.sampled_from(OPTIONS), value=VALUES)
def test_run__any_option_value_is_taken_or_refused_never_an_internal_error(
    option, value, tmp_path_factory, capsys
):
    folder = tmp_path_factory.mktemp("store")
    try:
        code = main(["run", "--domain", "mock", "--tasks", "create_task", "--store",
                     str(folder), option, value])  # fmt: skip
    except SystemExit as exit_:  # argparse's usage error
        code = exit_.code
    error = capsys.readouterr().err
    assert code == EXIT_ERROR, (option, value, error)
    assert "internal error" not in error and "Traceback" not in error
    assert list(folder.iterdir()) == []
