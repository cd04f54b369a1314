"""``tau-env view``: browse a result store in the terminal, runs to single conversations.

The screens are the store's runs, a run's episodes, and one conversation with its grade. Each
screen is a numbered list or a page of text, and a prompt: type a number to open an entry,
``n`` and ``p`` for the next and previous page, ``b`` to go back, ``q`` to quit (the end of
the input quits too, so the browser can be driven by a script). ``--run`` opens a run's
episodes and ``--task`` (with ``--trial``) one conversation directly; ``--only-failed`` lists
only the episodes that did not pass. The store is only read.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from tau_env.cli.common import add_store_arguments, documented_parser, open_existing_store
from tau_env.cli.conversation_text import RESULT_CHARS, grade_lines, message_lines, wrapped
from tau_env.errors import TauEnvError
from tau_env.rollout.config import RunConfig
from tau_env.rollout.modes import has_user
from tau_env.store.records import EpisodeSummary, RunRecord
from tau_env.store.sqlite import ResultStore
from tau_env.utils.commands import tau_env_command

__all__ = ["Browser", "Quit", "add_parser"]

_SUMMARY = "browse stored runs, their episodes and conversations in the terminal"
"""The subcommand's line in ``tau-env --help``."""


def add_parser(commands: Any) -> None:
    """Register the subcommand."""
    parser = documented_parser(commands, "view", _SUMMARY, __doc__)
    add_store_arguments(parser, run_help="open this run's episodes (default: list the runs)")
    parser.add_argument("--task", default=None, help="open this task's conversation (with --run)")
    parser.add_argument("--trial", type=int, default=0, help="the trial of --task (default: 0)")
    parser.add_argument(
        "--only-failed",
        "--only-show-failed",
        action="store_true",
        help="list only the episodes that did not pass (a reward below 1)",
    )
    parser.add_argument(
        "--page-size",
        type=int,
        default=None,
        help="lines per page (default: the terminal's height)",
    )
    parser.add_argument(
        "--full-tool-results",
        action="store_true",
        help=f"show tool results whole (default: cut after {RESULT_CHARS} characters)",
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    """Open the store read-only and browse it until the user quits."""
    if args.page_size is not None and args.page_size < 1:
        raise TauEnvError(f"--page-size must be >= 1, actually: {args.page_size}")
    if args.task is not None and args.run is None:
        raise TauEnvError("--task needs --run: name the run the conversation belongs to")
    size = shutil.get_terminal_size()
    with open_existing_store(args.store, read_only=True) as store:
        browser = Browser(
            store,
            page_size=args.page_size or max(size.lines - 3, 5),
            width=size.columns,
            only_failed=args.only_failed,
            result_chars=None if args.full_tool_results else RESULT_CHARS,
        )
        try:
            if args.run is None:
                browser.runs()
            elif args.task is None:
                browser.episodes(store.run(args.run))
            else:
                browser.conversation(store.run(args.run), args.task, args.trial)
        except Quit:
            pass
    return 0


class Quit(Exception):
    """The user typed ``q``, or the input ended: the browser closes."""


class Browser:
    """The screens of ``tau-env view``, reading commands from `read` and printing to `out`.

    Args:
        store: The result store (read-only).
        page_size: Lines (or list entries) per page.
        width: Columns to wrap text to.
        only_failed: List only episodes with a reward below 1.
        result_chars: Cut tool results after this many characters (None: never).
        commands: Where commands are read, a line each (default: standard input); its end
            reads as ``q``.
        out: Where screens are printed (default: standard output).
    """

    def __init__(
        self,
        store: ResultStore,
        *,
        page_size: int = 20,
        width: int = 100,
        only_failed: bool = False,
        result_chars: int | None = RESULT_CHARS,
        commands: TextIO | None = None,
        out: TextIO | None = None,
    ) -> None:
        self.store = store
        self.page_size = page_size
        self.width = width
        self.only_failed = only_failed
        self.result_chars = result_chars
        self.commands = commands or sys.stdin
        self.out = out or sys.stdout

    # -- screens -------------------------------------------------------------------------------
    def runs(self) -> None:
        """The runs of the store; a number opens that run's episodes."""
        runs = self.store.runs()
        if not runs:
            self._print(f"no runs in {self.store.path}")
            return
        rows = [self._run_row(run) for run in runs]
        self._choose("runs", rows, lambda i: self.episodes(runs[i]))

    def episodes(self, run: RunRecord) -> None:
        """A run's episodes (only the failed ones with `only_failed`); a number opens one."""
        summaries = self.store.summaries(run.run_id)
        if self.only_failed:
            summaries = [s for s in summaries if s.reward is not None and not s.success]
        if not summaries:
            what = "failed episodes" if self.only_failed else "episodes"
            self._print(f"run {run.run_id}: no {what}")
            return
        rows = [_episode_row(summary) for summary in summaries]
        title = f"run {run.run_id}: {len(rows)} {'failed ' if self.only_failed else ''}episodes"
        chosen = summaries

        def open_episode(index: int) -> None:
            self.conversation(run, chosen[index].task_id, chosen[index].trial)

        self._choose(title, rows, open_episode)

    def conversation(self, run: RunRecord, task_id: str, trial: int) -> None:
        """One episode: its grade, then its conversation, page by page.

        Raises:
            TauEnvError: The run has no episode of that task and trial.
        """
        record = self.store.episode(run.run_id, task_id, trial)
        if record is None:
            listing = tau_env_command("view", ("--store", self.store.path), ("--run", run.run_id))
            raise TauEnvError(
                f"run {run.run_id!r} has no episode of task {task_id!r} trial {trial}; "
                f"`{listing}` lists its episodes"
            )
        lines = [f"task {task_id}, trial {trial}, seed {record.seed}, {record.steps} steps"]
        if record.note:
            lines.append(f"note: {record.note}")
        lines += grade_lines(record.grade)
        lines.append("")
        for message in record.trajectory:
            lines += message_lines(message, result_chars=self.result_chars)
        self._page(wrapped(lines, self.width))

    # -- paging --------------------------------------------------------------------------------
    def _choose(self, title: str, rows: Sequence[str], open_entry: Callable[[int], None]) -> None:
        """A numbered, paged list; returns when the user goes back."""
        page = 0
        pages = max((len(rows) - 1) // self.page_size + 1, 1)
        while True:
            first = page * self.page_size
            self._print(f"{title} (page {page + 1} of {pages})")
            for number, row in enumerate(rows[first : first + self.page_size], first + 1):
                self._print(f"{number:>4}  {row}")
            command = self._ask("number to open, n/p next/previous page, b back, q quit: ")
            if command.isdigit() and 1 <= int(command) <= len(rows):
                open_entry(int(command) - 1)
            elif command == "n" and page + 1 < pages:
                page += 1
            elif command == "p" and page > 0:
                page -= 1
            elif command == "b":
                return
            elif command:
                self._print(f"no such entry or command: {command!r}")

    def _page(self, lines: Sequence[str]) -> None:
        """`lines` a page at a time; returns when the user goes back."""
        page = 0
        pages = max((len(lines) - 1) // self.page_size + 1, 1)
        while True:
            first = page * self.page_size
            for line in lines[first : first + self.page_size]:
                self._print(line)
            command = self._ask(
                f"page {page + 1} of {pages}: n/enter next, p previous, b back, q quit: "
            )
            if command in ("n", "") and page + 1 < pages:
                page += 1
            elif command == "p" and page > 0:
                page -= 1
            elif command == "b" or (command == "" and page + 1 == pages):
                return

    def _run_row(self, run: RunRecord) -> str:
        config = RunConfig.model_validate(run.config)
        summaries = self.store.summaries(run.run_id)
        judged = [s for s in summaries if s.reward is not None]
        passed = sum(s.success for s in judged)
        user = config.user.describe() if has_user(config.mode) else "none"
        data = "official" if config.data_dir else "built-in"
        planned = len(config.task_ids) * config.trials
        return (
            f"{run.run_id}  {run.domain} ({data}), agent {config.agent.describe()}, user {user}: "
            f"{passed}/{len(judged)} passed, {len(summaries)} of {planned} episodes"
        )

    def _print(self, line: str) -> None:
        print(line, file=self.out)

    def _ask(self, prompt: str) -> str:
        """One command, lower-cased; raises `Quit` for ``q`` and at the end of the input."""
        self.out.write(prompt)
        self.out.flush()
        line = self.commands.readline()
        if not line:
            self._print("")
            raise Quit
        command = line.strip().lower()
        if command == "q":
            raise Quit
        return command


def _episode_row(summary: EpisodeSummary) -> str:
    reward = "not judged" if summary.reward is None else f"{summary.reward:.3f}"
    return f"{summary.task_id}  trial {summary.trial}  reward {reward}  ({summary.termination})"
