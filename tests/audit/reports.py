"""An audit report of built-in airline played by the scripted user, for the report tests."""

from tau_env.audit import AuditReport, TaskAudit


def airline_report(grading: str, players: list[str], tasks: list[TaskAudit]) -> AuditReport:
    """The report of `tasks` as `players` played them, read under `grading`."""
    return AuditReport(
        domain="airline",
        env_id="tau/airline-v0",
        data="built-in",
        split=None,
        grading=grading,
        user="scripted user (seed 0)",
        players=players,
        tasks=tasks,
    )
