"""``tau-env generate --domain telecom``: the telecom task composer driven by the pipeline.

Families are the intents (``service_issue``, ``mobile_data_issue``, ``mms_issue``). Sizes scale
the built-in split sizes (train 300, test 120, test_ood 60 of 480), so the held-out structure
stays: test customers and issue types never seen in train, and the Hard persona in
``test_ood``. The world is the built-in database (its six scenario customers); it does not
grow, so ``--world-size`` is refused.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tau_env.data_files import BUILTIN_FILES, builtin_text
from tau_env.domains.telecom import builtin_databases
from tau_env.domains.telecom.tasks.build import refusal
from tau_env.domains.telecom.tasks.generate import SPLIT_SIZES, generate
from tau_env.domains.telecom.tasks.intents import INTENTS
from tau_env.generation.drawn import (
    Adapter,
    Drawn,
    Request,
    Take,
    described_family,
)
from tau_env.generation.render import task_dict
from tau_env.heap_collector import collector_paused
from tau_env.tasks.model import Task

__all__ = ["ADAPTER"]

_PACKAGE = "tau_env.domains.telecom"


def _sizes(families: Sequence[str], wanted: int) -> dict[str, dict[str, int]]:
    """The built-in split sizes of `families`, scaled to about `wanted` tasks in all."""
    total = sum(
        size for split in SPLIT_SIZES.values() for f, size in split.items() if f in families
    )
    return {
        split: {
            f: max(1, round(size * wanted / total)) for f, size in sizes.items() if f in families
        }
        for split, sizes in SPLIT_SIZES.items()
    }


def _files() -> dict[str, bytes]:
    """Databases and policy files in the reference's telecom layout (JSON databases)."""

    def text(name: str) -> bytes:
        return builtin_text(_PACKAGE, name).encode("utf-8")

    main = builtin_text(_PACKAGE, "policy.md")
    solo = main + "\n" + builtin_text(_PACKAGE, "policy_solo.md")
    return {
        "db.json": text(f"data/{BUILTIN_FILES['db']}"),
        "user_db.json": text(f"data/{BUILTIN_FILES['user_db']}"),
        "main_policy.md": main.encode("utf-8"),
        "main_policy_solo.md": solo.encode("utf-8"),
        "tech_support_manual.md": text("tech_support_manual.md"),
        "tech_support_workflow.md": text("tech_support_workflow.md"),
        "tech_support_workflow_solo.md": text("tech_support_workflow.md"),
    }


@collector_paused()  # the draw's objects all live on: collections find nothing
def _draw(request: Request, families: Sequence[str], wanted: int, take: Take) -> Drawn:
    sizes = _sizes(families, wanted)
    tasks, splits = generate(
        builtin_databases(), request.seed, sizes, verify=False, distinct_by_persona=False
    )
    split_of = {task_id: name for name, ids in splits.items() if name != "base" for task_id in ids}
    composed = _composed(tasks, split_of) if request.hold_out_compositions else set()
    for task in tasks:
        kept = ((task.description.parameters or {}) if task.description else {}).get("keep")
        take(task_dict(task), len(kept.split("|")) if kept else 0)
    return Drawn(files=_files(), split_of=split_of, world_size=6, composed=composed)


def _faults(task: Task) -> frozenset[str]:
    """The fault types a task starts with (its description's ``issues``)."""
    parameters = (task.description.parameters if task.description else None) or {}
    return frozenset(name for name in str(parameters.get("issues", "")).split("|") if name)


def _composed(tasks: Sequence[Task], split_of: Mapping[str, str]) -> set[str]:
    """``--hold-out-compositions``: the ``test`` tasks that combine faults seen only apart.

    Two faults or more, each of a type some ``train`` task has, in a combination no ``train``
    task has. The other ``test`` tasks (a fault type ``train`` never has, or one fault) stay in
    ``test``; ``test_ood`` (the Hard persona) keeps its tasks.
    """
    train = [_faults(task) for task in tasks if split_of[task.id] == "train"]
    seen = frozenset().union(*train)
    combinations = set(train)
    return {
        task.id
        for task in tasks
        if split_of[task.id] == "test"
        and len(faults := _faults(task)) >= 2
        and faults <= seen
        and faults not in combinations
    }


ADAPTER = Adapter(
    families=tuple(INTENTS),
    family_of=described_family,
    draw=_draw,
    check=refusal,
    compositional_split=True,
)
"""The telecom domain's adapter."""
