"""Arguments shared by several subcommands, and the default domain of the command line."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tau_env.errors import TauEnvError
from tau_env.grading.strict import GRADINGS
from tau_env.registry import canonical_domain
from tau_env.rollout.config import JudgeSpec
from tau_env.store.sqlite import ResultStore
from tau_env.utils.commands import tau_env_command
from tau_env.utils.strict_json import UnsafeJson, read_json
from tau_env.utils.wording import plain_help

if TYPE_CHECKING:
    from tau_env.grading.judge import LLMJudge

__all__ = [
    "DATA_DIR_VARIABLE",
    "DEFAULT_DOMAIN",
    "DEFAULT_STORE",
    "add_data_arguments",
    "add_data_dir_argument",
    "add_graded_play_arguments",
    "add_grading_argument",
    "add_judge_arguments",
    "add_retrieval_arguments",
    "add_store_arguments",
    "checked_judge",
    "data_options",
    "documented_parser",
    "json_object",
    "judge_spec",
    "open_existing_store",
]

DEFAULT_DOMAIN = "telecom"
"""The domain every subcommand uses when none is named (``run``'s offline main job plays it)."""

DEFAULT_STORE = "tau_env_runs.sqlite"
"""The result store `run`, `resume`, `report` and `export` use when none is named."""


def add_data_arguments(
    parser: argparse.ArgumentParser, *, default_domain: str | None = DEFAULT_DOMAIN
) -> None:
    """``--domain``, ``--data-dir``, ``--split`` and ``--tasks`` (None: ``--domain`` required).

    ``-d`` and ``--task-split-name`` are τ²-bench's names of ``--domain`` and ``--split``.
    """
    parser.add_argument(
        "--domain",
        "-d",
        type=canonical_domain,
        default=default_domain,
        required=default_domain is None,
        help="domain name or versioned id"
        + ("" if default_domain is None else " (default: %(default)s)"),
    )
    add_data_dir_argument(parser)
    parser.add_argument(
        "--split", "--task-split-name", default=None, help="task split (default: base, else all)"
    )
    parser.add_argument(
        "--tasks", default=None, help="comma-separated task ids (default: the whole split)"
    )


DATA_DIR_VARIABLE = "TAU2_DATA_DIR"
"""The environment variable that names the official data folder when ``--data-dir`` is not
given (the variable τ²-bench reads)."""


def add_data_dir_argument(parser: argparse.ArgumentParser) -> None:
    """``--data-dir``, its default ``$TAU2_DATA_DIR`` (unset or empty: the built-in data)."""
    parser.add_argument(
        "--data-dir",
        default=os.environ.get(DATA_DIR_VARIABLE) or None,
        help=f"reference data folder (with domains/<domain>/); default: ${DATA_DIR_VARIABLE} "
        "when it is set, else the built-in data",
    )


def add_retrieval_arguments(parser: argparse.ArgumentParser) -> None:
    """``--retrieval`` and ``--retrieval-options`` (domains with a knowledge base).

    ``--retrieval-config`` and ``--retrieval-config-kwargs`` are τ²-bench's names of them.
    """
    parser.add_argument(
        "--retrieval",
        "--retrieval-config",
        default=None,
        help="retrieval variant of a domain with a knowledge base, e.g. bm25, no_knowledge, "
        "grep_only (banking_knowledge; default: the domain's)",
    )
    parser.add_argument(
        "--retrieval-options",
        "--retrieval-config-kwargs",
        type=json_object,
        default=None,
        metavar="JSON",
        help="settings of the retrieval variant as a JSON object, e.g. '{\"top_k\": 5}'",
    )


def json_object(text: str) -> dict[str, object]:
    """An argparse type: a JSON object (``--retrieval-options '{"top_k": 5}'``)."""
    try:
        value = read_json(text)
    except UnsafeJson as error:
        raise argparse.ArgumentTypeError(f"not JSON: {error}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("expected a JSON object")
    return value


def add_store_arguments(parser: argparse.ArgumentParser, *, run_help: str) -> None:
    """``--store`` and ``--run``."""
    parser.add_argument(
        "--store",
        default=DEFAULT_STORE,
        help="SQLite result store (default: %(default)s in the current folder)",
    )
    parser.add_argument("--run", default=None, help=run_help)


def open_existing_store(path: str, *, read_only: bool = False) -> ResultStore:
    """A result store that must already exist (for resume, report, export).

    Args:
        path: The store's file.
        read_only: Only read it (report, export): the file is never changed, and may be in a
            read-only folder.

    Raises:
        TauEnvError: There is no file at `path`, or it is not a tau_env store (left as it is).
    """
    if Path(path).expanduser().is_dir():
        raise TauEnvError(f"--store {path} is a folder; name the result store file in it")
    if path != ":memory:" and not Path(path).expanduser().is_file():
        create = tau_env_command("run", ("--store", path))
        raise TauEnvError(f"no result store at {path}; `{create}` creates one")
    return ResultStore(path, read_only=read_only)


def add_judge_arguments(parser: argparse.ArgumentParser, *, resume: bool = False) -> None:
    """``--judge-model`` and ``--judge-api-base``: the model that judges NL assertions."""
    default = "the run's judge, if it has one" if resume else "none: NL assertions not judged"
    parser.add_argument(
        "--judge-model",
        default=None,
        help=f"litellm model that judges NL assertions, at temperature 0 (default: {default})",
    )
    parser.add_argument(
        "--judge-api-base",
        default=None,
        help="OpenAI-compatible base URL for the judge (default: the provider's)",
    )


def judge_spec(args: argparse.Namespace) -> JudgeSpec | None:
    """The judge the arguments name (None without ``--judge-model``).

    Raises:
        TauEnvError: ``--judge-api-base`` without ``--judge-model``.
    """
    if args.judge_model is None:
        if args.judge_api_base is not None:
            raise TauEnvError("--judge-api-base needs --judge-model")
        return None
    if not args.judge_model.strip():
        raise TauEnvError("--judge-model cannot be empty; name a litellm model")
    return JudgeSpec(model=args.judge_model, api_base=args.judge_api_base)


def add_graded_play_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of commands that play a task set and grade it here (audit, validate).

    The data and retrieval options (`add_data_arguments`, `add_retrieval_arguments`), the
    judge's (`add_judge_arguments`) and ``--grading``.
    """
    add_data_arguments(parser)
    add_retrieval_arguments(parser)
    add_judge_arguments(parser)
    add_grading_argument(parser)


def data_options(args: argparse.Namespace) -> dict[str, Any]:
    """``--data-dir``, ``--split`` and the retrieval options, as keywords of `make_env`.

    The arguments `add_data_arguments` and `add_retrieval_arguments` define, for the commands
    that load the domain's tasks (`make_env`, `load_tasks`, `audit` take the same keywords).
    """
    return {
        "data_dir": args.data_dir,
        "split": args.split,
        "retrieval": args.retrieval,
        "retrieval_options": args.retrieval_options,
    }


def checked_judge(args: argparse.Namespace) -> LLMJudge | None:
    """The judge the arguments name, its key checked now (None without ``--judge-model``).

    For commands that grade in this process: a missing key is one line naming it, said before
    any task is played.

    Raises:
        TauEnvError: ``--judge-api-base`` without ``--judge-model``.
        ModelAccessError: The judge's provider needs a key that is not set.
    """
    spec = judge_spec(args)
    if spec is None:
        return None
    from tau_env.grading.judge import LLMJudge

    judge = LLMJudge.from_model(spec.model, api_base=spec.api_base)
    judge.client.check_access()
    return judge


def add_grading_argument(parser: argparse.ArgumentParser) -> None:
    """``--grading official|strict`` (the strict reading is reported beside the official one)."""
    parser.add_argument(
        "--grading",
        choices=GRADINGS,
        default="official",
        help="strict: also read each grade with the task's listed checks added to its basis "
        "(ACTION, COMMUNICATE; NL with --judge-model), reported beside the official score "
        "(default: %(default)s)",
    )


def documented_parser(commands: Any, name: str, summary: str, doc: str | None) -> Any:
    """Add subcommand `name`, its ``--help`` the module docstring `doc` as written.

    Args:
        commands: The subparsers action of the ``tau-env`` parser.
        name: The subcommand.
        summary: Its line in the command list.
        doc: The subcommand module's ``__doc__`` (its line breaks kept; backtick quotes gone).
    """
    parser: argparse.ArgumentParser = commands.add_parser(
        name,
        help=summary,
        description=plain_help(doc),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    return parser
