"""The command line speaks one way (issue 42, item 8).

``--domain`` in every subcommand that takes a domain, with one default; a near miss of a domain,
task or split is answered with the closest name; help text is plain (no reStructuredText quotes,
no ``(default: None)``); counts agree with their noun; the exit codes are listed in ``--help``
and in docs/cli.md, the same.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from tau_env.cli import main as cli_main
from tau_env.cli.common import DEFAULT_DOMAIN
from tau_env.cli.main import EXIT_CODES, EXIT_ERROR, build_parser, main
from tau_env.cli.serve import served_domain
from tau_env.errors import TauEnvError, did_you_mean
from tau_env.utils.wording import counted, plain_help

CLI_PAGE = Path(__file__).resolve().parents[2] / "docs" / "cli.md"
DOMAIN_COMMANDS = ("run", "tasks", "validate", "audit", "serve")


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command")
    return dict(commands.choices)


def _error(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("command", DOMAIN_COMMANDS)
def test_domain__is_named_with_dash_dash_domain_and_defaults_alike(command):
    parser = _subparsers()[command]
    (domain,) = [a for a in parser._actions if "--domain" in a.option_strings]
    assert not domain.required
    default = parser.parse_args([]).domain
    assert default == DEFAULT_DOMAIN or (command == "serve" and default is None)
    assert parser.parse_args(["--domain", "mock"]).domain == "mock"


@pytest.mark.parametrize(
    ("argv", "domain"),
    [
        ([], DEFAULT_DOMAIN),
        (["--domain", "mock"], "mock"),
        (["mock"], "mock"),  # the older positional form, kept as an alias
        (["mock", "--domain", "mock"], "mock"),
    ],
)
def test_serve__takes_dash_dash_domain_and_still_the_positional_form(argv, domain):
    assert served_domain(_subparsers()["serve"].parse_args(argv)) == domain


def test_serve__two_different_domains_are_refused():
    args = _subparsers()["serve"].parse_args(["airline", "--domain", "mock"])
    with pytest.raises(TauEnvError, match="two domains given, 'airline' and --domain 'mock'"):
        served_domain(args)


def test_validate__defaults_to_the_same_domain_as_run_and_tasks(capsys):
    assert main(["tasks"]) == 0
    task_id = capsys.readouterr().out.splitlines()[0].split("\t")[0]
    assert main(["validate", "--tasks", task_id]) == 0
    assert capsys.readouterr().out.strip() == "1/1 tasks reach reward 1.0"


@pytest.mark.parametrize(
    ("argv", "suggestion"),
    [
        (["tasks", "--domain", "telcom"], "unknown domain 'telcom' (did you mean 'telecom'?)"),
        (["validate", "--domain", "airlin"], "(did you mean 'airline'?)"),
        (["tasks", "--domain", "tau/retial-v0"], "(did you mean 'retail'?)"),
        # Issue 55 item 6: a Gymnasium id, and the bank domain by its first word.
        (
            ["run", "--domain", "tau_env/Airline-v0"],
            "'tau_env/Airline-v0' (a Gymnasium id, of the domain 'airline': did you mean "
            "'airline'?)",
        ),
        (["tasks", "--domain", "bank"], "(did you mean 'banking_knowledge'?)"),
        (["run", "--domain", "banking"], "(did you mean 'banking_knowledge'?)"),
        (["tasks", "--domain", "Telecom"], "(did you mean 'telecom'?)"),
        (["tasks", "--domain", "airline", "--split", "tset"], "did you mean 'test'?"),
        (
            ["validate", "--domain", "mock", "--tasks", "complete_tsk"],
            "did you mean 'complete_task'?",
        ),
    ],
)
def test_near_misses__get_the_closest_name(argv, suggestion, capsys):
    assert main(argv) == EXIT_ERROR
    assert suggestion in _error(capsys)


def test_near_misses__run_tasks_get_the_closest_name(tmp_path, capsys):
    store = str(tmp_path / "runs.sqlite")
    argv = ["run", "--domain", "mock", "--tasks", "complete_tsk", "--store", store]
    assert main(argv) == EXIT_ERROR
    assert "did you mean 'complete_task'?" in _error(capsys)


def test_near_misses__nothing_is_suggested_for_a_name_like_none(capsys):
    assert main(["tasks", "--domain", "zzz"]) == EXIT_ERROR
    assert "did you mean" not in _error(capsys)
    assert did_you_mean("zzz", ["telecom", "airline"]) == ""


def test_split_errors__name_the_domain_not_a_package_path(capsys):
    assert main(["tasks", "--domain", "airline", "--split", "nope"]) == EXIT_ERROR
    err = _error(capsys)
    assert "airline (built-in data): unknown split 'nope'" in err
    assert "tau_env." not in err and ".json" not in err


def _help_texts() -> dict[str, str]:
    texts = {"tau-env": build_parser().format_help()}
    texts.update({name: parser.format_help() for name, parser in _subparsers().items()})
    return texts


@pytest.mark.parametrize("command", ["tau-env", *cli_main.SUBCOMMANDS])
def test_help__is_plain_text(command):
    text = _help_texts()[command.replace("_", "-")]
    assert "``" not in text and not re.search(r"`[^`\s]+`", text), text
    assert "(default: None)" not in text
    assert "(default: )" not in text


def test_plain_help__removes_restructuredtext_quotes():
    assert plain_help("``tau-env run`` writes ``results.json``; see `FakeServer`.") == (
        "tau-env run writes results.json; see FakeServer."
    )
    assert plain_help(None) is None


def test_counts__agree_with_their_noun(tmp_path, capsys):
    assert [counted(n, "trial") for n in (0, 1, 2)] == ["0 trials", "1 trial", "2 trials"]
    store = str(tmp_path / "runs.sqlite")
    argv = ["run", "--domain", "mock", "--tasks", "complete_task", "--store", store]
    assert main([*argv, "--no-progress"]) == 0
    assert "1 task x 1 trial (1 episode): average reward 1.000" in capsys.readouterr().out
    assert main([*argv, "--run", "quiet", "--quiet"]) == 0
    assert "(1 task x 1 trial, average reward 1.000)" in capsys.readouterr().out


def _documented_exit_codes() -> list[tuple[int, str]]:
    text = CLI_PAGE.read_text(encoding="utf-8")
    section = text[text.index("| code | meaning |") :]
    rows = []
    for line in section.splitlines()[2:]:
        if not line.startswith("|"):
            break
        code, meaning = (cell.strip() for cell in line.strip("|").split("|"))
        rows.append((int(code), meaning))
    return rows


def test_exit_codes__the_docs_and_help_list_the_same():
    assert _documented_exit_codes() == [(code, meaning) for code, meaning in EXIT_CODES]
    help_text = " ".join(build_parser().format_help().split())
    for code, meaning in EXIT_CODES:
        assert f"{code} {' '.join(meaning.split())}" in help_text
    assert f"(default: {DEFAULT_DOMAIN})" in cli_main.DOMAIN_NOTE


def test_exit_codes__are_the_ones_the_commands_return(capsys):
    codes = {code for code, _ in EXIT_CODES}
    assert {
        cli_main.EXIT_ERROR,
        cli_main.EXIT_INTERNAL,
        cli_main.EXIT_INTERRUPTED,
        cli_main.EXIT_BROKEN_PIPE,
    } < codes
    assert main(["validate", "--domain", "mock"]) == 0  # every built-in mock task reaches 1.0
    with pytest.raises(SystemExit) as usage:  # argparse's usage errors are code 2 too
        main(["run", "--trials", "x"])
    assert usage.value.code == EXIT_ERROR
    capsys.readouterr()
