"""``tau-env play``: a person types one side (lines on stdin), a participant plays the other."""

from __future__ import annotations

import io
import sys

import pytest

from tau_env.cli.main import EXIT_ERROR, main

CREATE = '/call create_task {"user_id": "user_1", "title": "Renew passport"}'
MOCK = ["play", "--domain", "mock", "--task", "create_task", "--seed", "3"]


def play(monkeypatch, capsys, lines: list[str], *argv: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    code = main([*MOCK, *argv])
    return code, capsys.readouterr().out


def test_play__as_the_agent_against_the_scripted_user_earns_the_reward(monkeypatch, capsys):
    code, out = play(monkeypatch, capsys, ["/tools", CREATE, "Your new task is task_4."])
    assert code == 0
    assert "You are the agent." in out and "# To-do service: agent policy" in out
    assert "user: " in out  # the scripted user's request reached the person
    assert "  create_task(user_id, title, description): Create a task" in out  # /tools
    assert 'tool result to the agent: {"task_id": "task_4"' in out
    assert "episode over: task create_task" in out
    assert "reward 1.000 (user_stop)" in out and "  COMMUNICATE: met" in out


def test_play__as_the_agent_without_doing_the_task_earns_nothing(monkeypatch, capsys):
    code, out = play(monkeypatch, capsys, ["Sorry, I cannot help.", "/stop"])
    assert code == 0
    assert "reward 0.000 (" in out and "  DB: not met" in out


def test_play__as_the_user_against_the_oracle_agent(monkeypatch, capsys):
    lines = ["Hi, I need a task 'Renew passport' for user_1.", "Thanks!", "/stop"]
    code, out = play(monkeypatch, capsys, lines, "--as", "user")
    assert code == 0
    assert "You are the user." in out and "Reason for call:" in out  # the scenario
    assert "agent: Hi! How can I help you today?" in out
    assert "agent calls" not in out  # the agent's tool traffic is not the user's to see
    assert "reward 1.000" in out


def test_play__against_another_participant_kind(monkeypatch, capsys):
    code, out = play(monkeypatch, capsys, [CREATE, "Done: task_4."], "--user", "gold")
    assert code == 0 and "reward 1.000" in out


def test_play__mistakes_are_answered_and_nothing_is_sent(monkeypatch, capsys):
    lines = [
        "",
        "/call nope {}",
        "/call create_task [1]",
        "/call create_task {oops",
        "/frobnicate",
        "/instructions",
    ]
    code, out = play(monkeypatch, capsys, lines)
    assert code == 0
    assert "no tool 'nope' on the agent's side; /tools lists them" in out
    assert 'the arguments must be a JSON object, e.g. {"a": 1}' in out
    assert "the arguments are not JSON (" in out
    assert "unknown command '/frobnicate'" in out
    assert out.count("# To-do service: agent policy") == 2  # at the start, then /instructions
    # the input ended before the episode did: nothing is graded
    assert out.rstrip().endswith(
        "left the conversation: the episode was not finished, so it is not graded"
    )
    assert "episode over" not in out


def test_play__quit_leaves_without_a_grade(monkeypatch, capsys):
    code, out = play(monkeypatch, capsys, ["/quit", "never read"])
    assert code == 0 and "not graded" in out and "reward" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--as", "user", "--user", "llm"],
            "you play the user: --user options are for the other side",
        ),
        (["--task", "nope"], "no task 'nope'"),
        (["--agent", "llm"], "--agent llm needs a model"),
        (["--seed", "-1"], "--seed must be >= 0"),
    ],
)
def test_play__bad_options_are_one_line_before_anything_is_asked(
    argv, message, monkeypatch, capsys
):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    argv = [*MOCK, *argv] if "--task" not in argv else ["play", "--domain", "mock", *argv]
    if "--agent" in argv and "--as" not in argv:
        argv += ["--as", "user"]
    assert main(argv) == EXIT_ERROR
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert message in line
