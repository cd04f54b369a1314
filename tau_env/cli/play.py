"""``tau-env play``: play one side of an episode yourself, at the terminal, then see its grade.

``--as agent`` (the default) gives you the agent's seat: you see what the customer says and
the results of your tool calls, and the user side is played by ``--user`` (the scripted user
by default, or an LLM user, or any ``package.module:factory``). ``--as user`` gives you the
customer's seat, with the task's scenario as your instructions, against ``--agent`` (the
oracle by default). Each line you type is one action:

  text                   send the text as a message (the other side answers)
  /call NAME {"a": 1}    call one of your tools with JSON arguments (you keep the floor)
  /stop                  end the conversation
  /tools                 list your tools; /instructions shows your instructions again
  /quit                  leave without finishing (nothing is graded)

When the episode ends, its grade is printed with every check. Nothing is stored.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from tau_env.actions import Action, CallTool, SendMessage, Stop
from tau_env.cli.common import (
    DEFAULT_DOMAIN,
    add_data_dir_argument,
    add_judge_arguments,
    add_retrieval_arguments,
    checked_judge,
    data_options,
    documented_parser,
)
from tau_env.cli.conversation_text import RESULT_CHARS, grade_lines, message_lines
from tau_env.cli.participant_options import add_participant_arguments, participant_spec
from tau_env.env.aec import SideContext
from tau_env.env.conversation import SideView
from tau_env.errors import TauEnvError
from tau_env.messages import Message, Side
from tau_env.registry import canonical_domain

__all__ = ["Person", "add_parser"]

_SUMMARY = "play the agent or the user yourself against any participant"
"""The subcommand's line in ``tau-env --help``."""

_COMMANDS = "type a message, or: /call NAME {json arguments}, /stop, /tools, /instructions, /quit"
"""The one-line reminder of what a person can type."""


def add_parser(commands: Any) -> None:
    """Register the subcommand."""
    parser = documented_parser(commands, "play", _SUMMARY, __doc__)
    parser.add_argument(
        "--domain",
        "-d",
        type=canonical_domain,
        default=DEFAULT_DOMAIN,
        help="domain name or versioned id (default: %(default)s)",
    )
    add_data_dir_argument(parser)
    parser.add_argument("--split", default=None, help="task split (default: base, else all)")
    parser.add_argument("--task", default=None, help="the task to play (default: drawn)")
    parser.add_argument(
        "--seed", type=int, default=None, help="seeds the task draw and the episode"
    )
    parser.add_argument(
        "--as",
        dest="seat",
        choices=("agent", "user"),
        default="agent",
        help="the side you play (default: %(default)s)",
    )
    add_retrieval_arguments(parser)
    add_participant_arguments(parser, "agent")
    add_participant_arguments(parser, "user")
    add_judge_arguments(parser)
    parser.add_argument("--max-steps", type=int, default=200, help="step limit (default: 200)")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    """Play one episode with the person in their seat; print its grade."""
    from tau_env.episode_runner import run_episode
    from tau_env.loader import make_env
    from tau_env.rollout.participants import build_factory

    if args.seed is not None and args.seed < 0:
        raise TauEnvError(f"--seed must be >= 0, actually: {args.seed}")
    other: Side = "user" if args.seat == "agent" else "agent"
    if getattr(args, args.seat) is not None or getattr(args, f"{args.seat}_model") is not None:
        raise TauEnvError(f"you play the {args.seat}: --{args.seat} options are for the other side")
    env = make_env(
        args.domain, **data_options(args), judge=checked_judge(args), max_steps=args.max_steps
    )
    raw = env.unwrapped
    if args.task is not None:
        raw.domain.task(args.task)  # an unknown task: one line, before anything is asked
    machine = build_factory(other, participant_spec(args, other), raw.domain)
    person = Person(args.seat, sys.stdin, sys.stdout)

    def seat(task: Any) -> Person:
        return person

    factories = {args.seat: seat, other: machine}
    try:
        result = run_episode(
            env, factories["agent"], factories["user"], task_id=args.task, seed=args.seed
        )
    except Quit:
        print("left the conversation: the episode was not finished, so it is not graded")
        return 0
    person.show(raw.view(args.seat).inbox)  # what arrived after the person's last action
    print(f"\nepisode over: task {result.task_id}, {result.steps} steps")
    for line in grade_lines(result.grade.model_dump(mode="json")):
        print(line)
    return 0


class Quit(Exception):
    """The person typed ``/quit``, or their input ended."""


class Person:
    """A participant played by a person: prints what reaches its side, reads each action.

    Args:
        side: ``"agent"`` or ``"user"``.
        commands: Where the person's lines are read.
        out: Where the conversation is printed.
    """

    def __init__(self, side: str, commands: TextIO, out: TextIO) -> None:
        self.side = side
        self.commands = commands
        self.out = out
        self._introduced = False

    def act(self, view: SideView, context: SideContext) -> Action:
        """Show the new messages, then read lines until one is an action.

        Raises:
            Quit: ``/quit``, or the end of the input.
        """
        if not self._introduced:
            self._introduced = True
            self._print(f"You are the {self.side}. {_COMMANDS}")
            self._print("Your instructions:")
            self._print(context.instructions)
            self._print("")
        self.show(view.inbox)
        while True:
            self.out.write(f"{self.side}> ")
            self.out.flush()
            line = self.commands.readline()
            if not line:
                self._print("")
                raise Quit
            action = self._action(line.strip(), context)
            if action is not None:
                return action

    def show(self, messages: list[Message]) -> None:
        """Print `messages` as the conversation's lines."""
        for message in messages:
            for line in message_lines(message.model_dump(mode="json"), result_chars=RESULT_CHARS):
                self._print(line)

    def _action(self, line: str, context: SideContext) -> Action | None:
        """The action a typed line stands for (None: a command that only prints, or a mistake)."""
        if not line:
            return None
        if not line.startswith("/"):
            return SendMessage(content=line)
        command, _, rest = line.partition(" ")
        if command == "/quit":
            raise Quit
        if command == "/stop":
            return Stop()
        if command == "/tools":
            for tool in context.tools:
                function = tool["function"]
                parameters = ", ".join(function.get("parameters", {}).get("properties", {}))
                summary = (function.get("description") or "").strip().splitlines()
                self._print(f"  {function['name']}({parameters}): {summary[0] if summary else ''}")
            return None
        if command == "/instructions":
            self._print(context.instructions)
            return None
        if command == "/call":
            return self._call(rest.strip(), context)
        self._print(f"unknown command {command!r}; {_COMMANDS}")
        return None

    def _call(self, text: str, context: SideContext) -> CallTool | None:
        name, _, arguments = text.partition(" ")
        names = [tool["function"]["name"] for tool in context.tools]
        if name not in names:
            self._print(f"no tool {name!r} on the {self.side}'s side; /tools lists them")
            return None
        try:
            parsed = json.loads(arguments) if arguments.strip() else {}
        except ValueError as error:
            self._print(f'the arguments are not JSON ({error}); e.g. /call {name} {{"a": 1}}')
            return None
        if not isinstance(parsed, dict):
            self._print('the arguments must be a JSON object, e.g. {"a": 1}')
            return None
        return CallTool(name=name, arguments=parsed)

    def _print(self, line: str) -> None:
        print(line, file=self.out)
