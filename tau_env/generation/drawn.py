"""What a domain's generator hands the task-set pipeline: a world, its files and candidate tasks.

The candidates are handed over one at a time as they are drawn (`Take`), so neither the
generator nor the pipeline holds them all as Python objects.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tau_env.domain import Domain
    from tau_env.tasks.model import Task

__all__ = [
    "Adapter",
    "Drawn",
    "Request",
    "Take",
    "described_family",
    "desk_drawn",
]


@dataclass(frozen=True)
class Request:
    """What ``tau-env generate`` was asked for (checked by `tau_env.generation.request`).

    Attributes:
        domain: ``airline``, ``retail``, ``telecom`` or ``banking_knowledge``.
        seed: Seeds every random draw; the same request gives the same bytes.
        tasks: How many tasks the set holds.
        families: The families to draw from (None: every family of the domain).
        world_size: Customers in the generated world (None: grown with `tasks`).
        difficulty: Levels kept (None: every level; `tau_env.generation.difficulty`).
        audit_sample: Tasks of each family played with the shortcut probes for the
            manifest (0: none; `tau_env.generation.audit_sample.ALL_TASKS`: every task).
        workers: Processes sharing the gold replays (the set does not depend on it).
        held_out: Families whose tasks all go to the split ``test_family``, never to
            ``train`` or ``test`` (None: none held out).
        require_audit: When a probe passes more than 5% of the set, select it again with
            the families it passes cut, or refuse to write it
            (`tau_env.generation.audit_regeneration`).
        weights: Per family of `families`, in order, its weight: each family's share of the
            set is proportional to it (None: each family its natural share of the draw).
        backend: Where the gold replays run: ``"local"`` (`workers` processes) or ``"ray"``
            (Ray tasks; the set does not depend on it).
        hold_out_world: The share of the world's customers whose tasks go to ``test_world``
            (0: none; `tau_env.generation.held_out`).
        hold_out_compositions: Send the tasks combining sub-goals that ``train`` has only
            separately to ``test_compositional`` (`tau_env.generation.held_out`).
    """

    domain: str
    seed: int
    tasks: int
    families: tuple[str, ...] | None = None
    world_size: int | None = None
    difficulty: tuple[str, ...] | None = None
    audit_sample: int = 0
    workers: int = 1
    held_out: tuple[str, ...] | None = None
    require_audit: bool = False
    weights: tuple[float, ...] | None = None
    backend: str = "local"
    hold_out_world: float = 0.0
    hold_out_compositions: bool = False

    @property
    def family_weights(self) -> dict[str, float] | None:
        """Family -> its weight, when the request weighs its families (None: natural shares)."""
        if self.families is None or self.weights is None:
            return None
        return dict(zip(self.families, self.weights, strict=True))


Take = Callable[[dict[str, Any], int | None], None]
"""Where a generator hands each candidate task over as it draws it, in draw order: its JSON
object (the domain's task layout) and the records of its customer its plan never touches
(None: not known). The pipeline keeps a few fields of it (`tau_env.generation.candidates`),
so a draw need not hold its candidates."""


@dataclass
class Drawn:
    """A generated world and what the pipeline needs of its candidates beyond each one's JSON.

    The candidates themselves were handed to the draw's `Take` one at a time.

    Attributes:
        files: The domain folder's files other than the tasks and splits (database,
            policy...), by path relative to ``domains/<domain>/``.
        split_of: Each candidate's id -> the split the generator put it in.
        world_size: The number of customers the world holds (for the manifest).
        composed: The candidates combining sub-goals ``train`` has only separately (their
            split becomes ``test_compositional`` with ``--hold-out-compositions``; filled
            only when the request asks for it).
    """

    files: dict[str, bytes]
    split_of: dict[str, str]
    world_size: int
    composed: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class Adapter:
    """How the pipeline drives one domain's generator.

    Attributes:
        families: Every family name ``--families`` accepts, in the generator's order.
        family_of: The family a candidate task belongs to (what ``--families`` names).
        draw: ``(request, families, wanted, take) -> Drawn``: hands about `wanted`
            candidates of those families to `take` as it draws them (duplicates and tasks of
            unwanted difficulty are removed afterwards).
        min_world: The smallest ``--world-size`` the generator works with (None: the
            world does not grow, and ``--world-size`` is refused).
        max_world: The largest world the generator can draw (None: no bound).
        write_tasks: ``(folder, tasks, splits)``: writes the selected tasks (handed over one
            at a time) and the splits into the domain folder its own way (None:
            ``tasks.json`` and ``split_tasks.json``).
        check: The generator's own checks of a task, beyond the reward of the gold replay
            every task gets, made in that replay (`tau_env.generation.verify`) on the worlds it
            left in the loaded domain's cache: ``(domain, task) -> why the task is refused,
            or None`` (telecom: the faults really break the goal, the gold plan's end state
            does not depend on the seed).
        world_split: The draw offers ``test_world`` (``--hold-out-world``).
        compositional_split: The draw offers ``test_compositional``
            (``--hold-out-compositions``).
    """

    families: tuple[str, ...]
    family_of: Callable[[Mapping[str, Any]], str]
    draw: Callable[[Request, Sequence[str], int, Take], Drawn]
    min_world: int | None = None
    max_world: int | None = None
    write_tasks: (
        Callable[[Path, Iterable[Mapping[str, Any]], Mapping[str, list[str]]], None] | None
    ) = None
    check: Callable[[Domain, Task], str | None] | None = None
    world_split: bool = False
    compositional_split: bool = False


def described_family(task: Mapping[str, Any]) -> str:
    """The family a generator wrote into a task's description (``description.family``)."""
    return str((task.get("description") or {}).get("family"))


def desk_drawn(
    package: str, tables: Mapping[str, Mapping[str, Any]], splits: Mapping[str, Sequence[str]]
) -> tuple[dict[str, bytes], dict[str, str]]:
    """A desk domain's files and split of each candidate (airline, retail), for `Drawn`.

    Its database and its packaged policy; the split the generator gave each task (its
    ``base`` listing of every task left out).
    """
    from tau_env.data_files import builtin_text
    from tau_env.generation.render import database_text

    files = {
        "db.json": database_text(tables),
        "policy.md": builtin_text(package, "policy.md").encode("utf-8"),
    }
    split_of = {task_id: name for name, ids in splits.items() if name != "base" for task_id in ids}
    return files, split_of
