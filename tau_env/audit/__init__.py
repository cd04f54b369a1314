"""Auditing a task set: can simple policies that do not solve a task still pass it?

`audit` plays every task with a fixed set of probes (`tau_env.baselines.probes`: refuse,
transfer at once, agree and end, read everything and end, three random agents) and with the
oracle (the gold plan, an upper bound), against the scripted user, and reports per task which
of them pass, per player the pass rate, and the tasks only the oracle passes::

    from tau_env.audit import audit

    report = audit("airline", data_dir="/path/to/tau2-data")
    report.rate("refuse")   # 0.46: almost half the official airline tasks pass by refusing

``tau-env audit --domain D`` prints the same (``--json``, ``--html FILE``).
"""

from tau_env.audit.play import USER_SEED, audit
from tau_env.audit.report import (
    ORACLE,
    ORACLE_LABEL,
    AuditReport,
    PlayerRate,
    TaskAudit,
    render_text,
)

__all__ = [
    "ORACLE",
    "ORACLE_LABEL",
    "USER_SEED",
    "AuditReport",
    "PlayerRate",
    "TaskAudit",
    "audit",
    "render_text",
]
