"""Rollouts: run tasks x trials concurrently, store every episode, report pass^k.

from tau_env.rollout import ParticipantSpec, RunConfig, create_run, run, run_report
from tau_env.store import ResultStore

store = ResultStore("runs.sqlite")
config = RunConfig(run_id="r1", domain="mock", task_ids=("create_task",), trials=4,
                   agent=ParticipantSpec(kind="oracle"), user=ParticipantSpec(kind="scripted"))
create_run(store, config)
run(store, config)                      # a killed run continues with run(store, load_run(...))
print(run_report(store, "r1").pass_hat_k)
"""

from tau_env.rollout.config import MODES, ParticipantSpec, RunConfig
from tau_env.rollout.export import export_run
from tau_env.rollout.plan import Unit, pending_units, plan_units
from tau_env.rollout.report import IncompleteRun, RunReport, TaskResult, run_report
from tau_env.rollout.runner import (
    Backend,
    LocalBackend,
    RunSummary,
    arun,
    create_run,
    load_run,
    run,
)

__all__ = [
    "MODES",
    "Backend",
    "IncompleteRun",
    "LocalBackend",
    "ParticipantSpec",
    "RunConfig",
    "RunReport",
    "RunSummary",
    "TaskResult",
    "Unit",
    "arun",
    "create_run",
    "export_run",
    "load_run",
    "pending_units",
    "plan_units",
    "run",
    "run_report",
]
