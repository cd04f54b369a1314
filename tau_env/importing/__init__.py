"""Importing results files of the reference (τ²-bench ``Results`` JSON) as runs of the store.

``tau-env import FILE...`` reads each file, re-grades every simulation with tau_env's grader
and prints how the grades agree with the rewards the file recorded (`Agreement`).
"""

from tau_env.importing.agreement import COMPONENTS, Agreement, agreement_of, compare
from tau_env.importing.conversation import ProtocolViolation, read_conversation
from tau_env.importing.importer import ImportResult, import_results
from tau_env.importing.regrade import regrade, replay_writes
from tau_env.importing.results_file import ImportRefused, ResultsFile, read_results_file

__all__ = [
    "COMPONENTS",
    "Agreement",
    "ImportRefused",
    "ImportResult",
    "ProtocolViolation",
    "ResultsFile",
    "agreement_of",
    "compare",
    "import_results",
    "read_conversation",
    "read_results_file",
    "regrade",
    "replay_writes",
]
