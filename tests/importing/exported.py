"""A run played by tau_env and exported in the reference's results layout, for the import tests."""

from typing import Any

from tau_env.rollout import RunConfig, create_run, export_run, run
from tau_env.store import ResultStore


def exported_run(store: ResultStore, config: RunConfig) -> dict[str, Any]:
    """Creates and plays the run `config` in `store`; returns its export (a results file's JSON)."""
    create_run(store, config)
    run(store, config)
    return export_run(store, config.run_id)
