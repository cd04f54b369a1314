"""Printed commands survive a paste into a POSIX shell and argparse, whatever the values."""

import shlex

import pytest

from tau_env.cli.main import build_parser
from tau_env.utils.commands import id_part, resume_command, tau_env_command

AWKWARD = [
    "plain",
    "telecom-llm(gpt-4.1)-scripted-20261130-225136.202",
    "my runs/with space.sqlite",
    "it's $HOME; rm -rf ~ `x` | y & z > w",
    "-starts-with-dash",
    "ünïcode ✓",
]


@pytest.mark.parametrize("store", AWKWARD)
@pytest.mark.parametrize("run_id", AWKWARD)
def test_resume_command__parses_back_to_the_same_store_and_run(store, run_id):
    words = shlex.split(resume_command(store, run_id))
    assert words[:2] == ["tau-env", "resume"]
    args = build_parser().parse_args(words[1:])
    assert (args.store, args.run) == (store, run_id)


def test_tau_env_command__leaves_out_options_without_a_value():
    assert tau_env_command("tasks", ("--domain", "mock"), ("--split", None)) == (
        "tau-env tasks --domain mock"
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("llm(gpt-4.1)", "llm_gpt-4.1"),
        ("llm(openai/gpt-4.1)", "llm_openai_gpt-4.1"),
        ("my.pkg:factory", "my.pkg_factory"),
        ("oracle", "oracle"),
        ("()", "_"),
    ],
)
def test_id_part__keeps_only_characters_no_shell_treats_specially(text, expected):
    assert id_part(text) == expected
    assert shlex.quote(id_part(text)) == id_part(text)
