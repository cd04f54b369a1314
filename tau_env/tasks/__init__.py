"""Tasks: the reference's task model, task files and splits.

The package exports every name of `tau_env.tasks.model` (its ``__all__``) and the file readers
of `tau_env.tasks.loading`.
"""

from tau_env.tasks import model
from tau_env.tasks.loading import parse_tasks, read_json, read_splits, select_split
from tau_env.tasks.model import *  # noqa: F403 (the names of model.__all__)

__all__ = [*model.__all__, "parse_tasks", "read_json", "read_splits", "select_split"]
