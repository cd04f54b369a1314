"""A participant factory that a hostile store names: importing this module must not happen."""

from tau_env.baselines.oracle import OracleAgent

IMPORTED = True


def make(task: object) -> OracleAgent:
    """The oracle, so that a resume that names this factory on purpose plays normally."""
    return OracleAgent(task)  # type: ignore[arg-type]
