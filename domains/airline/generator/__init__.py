"""The built-in airline data: a generated world and tasks with verified gold plans.

``generate(seed)`` draws a world (`world.py`), draws tasks from every family (`tasks.py`,
families in `booking.py`, `cancellation.py`, `changes.py`, `compensation.py`, gold plans
following `rules.py`), splits them, gives them plain ids (``airline/<split>/<NNNN>``,
`tau_env.domains.opaque_ids`; the family is in each task's description) and checks each task
by gold replay (`verify.py`). The
package ships the result for the default seed in ``domains/airline/data/``;
``.ci/rewrite-builtin-data`` rewrites it, and a test proves it unchanged; ``tau-env generate``
(`tau_env.generation`) writes sets of any size.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

from tau_env.data_files import BUILTIN_FILES, builtin_text
from tau_env.domains.airline.data_model import AirlineData
from tau_env.domains.airline.generator.tasks import draw_tasks, split_tasks
from tau_env.domains.airline.generator.verify import builtin_domain, verify_tasks
from tau_env.domains.airline.generator.world import WorldConfig, generate_world
from tau_env.domains.opaque_ids import opaque_ids, renamed
from tau_env.state.database import Snapshot
from tau_env.tasks.model import Task

__all__ = ["BUILTIN_SEED", "GeneratedData", "generate", "render_files", "write_files"]

BUILTIN_SEED = 20240515
"""The seed of the data shipped in ``domains/airline/data/``."""


@dataclass(frozen=True)
class GeneratedData:
    """A generated world with its verified tasks.

    Attributes:
        data: The database.
        tasks: Tasks in the order of the ``base`` split (train, then test; by id).
        splits: ``base``, ``train`` and ``test`` task ids.
    """

    data: AirlineData
    tasks: list[Task]
    splits: dict[str, list[str]]


def generate(
    seed: int = BUILTIN_SEED, *, config: WorldConfig | None = None, scale: float = 1.0
) -> GeneratedData:
    """Generate a world and its tasks; the same arguments always give the same result.

    Args:
        seed: Seeds every random draw.
        config: World size (default `WorldConfig()`).
        scale: Multiplies the number of tasks drawn per family.

    Raises:
        GenerationError: A drawn task fails its gold replay (a generator bug).
    """
    rng = random.Random(seed)
    data = generate_world(rng, config)
    drawn = list(draw_tasks(data, rng, scale))
    new_ids, splits = opaque_ids("airline", split_tasks([t.id for t in drawn], rng), seed)
    tasks = renamed(drawn, new_ids, splits["base"])
    policy = builtin_text("tau_env.domains.airline", "policy.md")
    verify_tasks(builtin_domain(Snapshot.from_model(data), tasks, splits, policy))
    return GeneratedData(data, tasks, splits)


def render_files(generated: GeneratedData) -> dict[str, str]:
    """The data files' text.

    ``db.json`` holds one record per line, ``tasks.json`` one task per line (default values
    left out); ``split_tasks.json`` is indented.
    """
    tables = []
    for name, records in generated.data.model_dump(mode="json").items():
        lines = [f"{json.dumps(key)}: {json.dumps(record)}" for key, record in records.items()]
        tables.append(f"{json.dumps(name)}: {{\n" + ",\n".join(lines) + "\n}")
    tasks = [
        json.dumps(task.model_dump(mode="json", exclude_none=True, exclude_defaults=True))
        for task in generated.tasks
    ]
    return {
        BUILTIN_FILES["db"]: "{\n" + ",\n".join(tables) + "\n}\n",
        BUILTIN_FILES["tasks"]: "[\n" + ",\n".join(tasks) + "\n]\n",
        BUILTIN_FILES["splits"]: json.dumps(generated.splits, indent=1) + "\n",
    }


def write_files(folder: Path, generated: GeneratedData) -> None:
    """Write the data files into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in render_files(generated).items():
        (folder / name).write_text(text, encoding="utf-8")
