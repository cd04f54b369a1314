"""``tau-env generate``'s pipeline: draw, deduplicate, measure, select, split, verify, write.

1. The domain's generator draws a world and more candidate tasks than asked for (`Adapter`).
2. Duplicates (same family, starting state, gold plan and checks) are removed; each task gets
   its difficulty features (`difficulty`), and ``--difficulty`` keeps the levels asked for.
3. `select.proportional` keeps exactly the number asked for, every family in its share; the
   generator's split of each kept task stays, and the tasks get plain ids
   (`tau_env.domains.opaque_ids`).
4. The files are written into a hidden staging folder inside the output folder, loaded from
   there exactly as ``--data-dir`` loads them, and every task is played with the oracle agent
   and the gold user: each must reach reward 1.0.
5. A sample of the tasks is played with the shortcut probes (`audit_sample`; each probe's
   pass rate goes into the manifest).
6. Only then is the manifest written and the staging folder renamed to
   ``<out>/domains/<domain>``: a reader sees no set or the whole verified set, and a failure
   leaves the output folder as it was.

Everything derives from the seed, and every file is rendered deterministically, so the same
request gives the same bytes.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tau_env
from tau_env.domain import clear_domain_cache, domain_definition
from tau_env.domains.opaque_ids import opaque_ids
from tau_env.errors import InvalidOption
from tau_env.generation.audit_sample import audit_sample
from tau_env.generation.difficulty import difficulty_features
from tau_env.generation.drawn import Adapter, Drawn, Request
from tau_env.generation.manifest import GENERATOR_VERSION, MANIFEST_FILE, content_hash
from tau_env.generation.render import split_text, tasks_text
from tau_env.generation.request import adapter_for
from tau_env.generation.select import distinct, proportional
from tau_env.generation.verify import VERIFY_RETRIEVAL, verify_folder

__all__ = [
    "AuditRefused",
    "Generated",
    "GenerationShortfall",
    "domain_folder",
    "generate_task_set",
]

OVERSHOOTS = (1.25, 2.5, 5.0)
"""Candidates drawn per task asked for, tried in turn until enough distinct ones are left."""

_STAGING_PREFIX = ".tau-env-generate-"

HELD_OUT_SPLIT = "test_family"
"""The split of the families ``--hold-out-families`` names: never seen in ``train``."""


class GenerationShortfall(InvalidOption):
    """The generator cannot draw as many distinct tasks as asked (say which knob to turn)."""


class AuditRefused(InvalidOption):
    """``--require-audit``: a shortcut probe passes more than 5% of the audited sample."""


@dataclass(frozen=True)
class Generated:
    """A written task set.

    Attributes:
        folder: ``<out>/domains/<domain>``.
        manifest: What ``manifest.json`` says.
    """

    folder: Path
    manifest: dict[str, Any]


def domain_folder(out: str | Path, domain: str) -> Path:
    """Where a set of `domain` is written under the output folder."""
    return Path(out).expanduser() / "domains" / domain


def _check_target(out: Path, domain: str, force: bool) -> None:
    if out.exists() and not out.is_dir():
        raise InvalidOption(f"--out: {out} is a file, not a folder")
    target = domain_folder(out, domain)
    if target.exists() and not force:
        raise InvalidOption(f"{target} already exists; pass --force to replace it")


def _candidates(
    request: Request, adapter: Adapter, families: tuple[str, ...]
) -> tuple[Drawn, list[dict[str, Any]], int]:
    """The draw with enough distinct tasks of the wanted levels, and how many were duplicates."""
    toolbox = domain_definition(request.domain).toolbox
    found = 0
    for overshoot in OVERSHOOTS:
        drawn = adapter.draw(request, families, math.ceil(request.tasks * overshoot) + 4)
        unique = distinct(drawn.tasks, adapter.family_of)
        kept: list[dict[str, Any]] = []
        for task in unique:
            features = difficulty_features(task, toolbox, drawn.distractors.get(task["id"]))
            if request.difficulty is None or features["level"] in request.difficulty:
                description = {**(task.get("description") or {}), "difficulty": features}
                kept.append({**task, "description": description})
        found = len(kept)
        if found >= request.tasks:
            return drawn, kept, len(drawn.tasks) - len(unique)
    raise GenerationShortfall(
        f"the {request.domain} generator found only {found} distinct tasks "
        + ("of those families and levels " if request.families or request.difficulty else "")
        + f"for --tasks {request.tasks}; ask for fewer"
        + (", or a larger --world-size" if adapter.min_world is not None else "")
    )


def _final_tasks(
    request: Request, adapter: Adapter, drawn: Drawn, candidates: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], dict[str, list[str]]]:
    """The selected tasks under plain ids, in ``base`` order, and the splits."""

    def stratum(task: Mapping[str, Any]) -> str:  # every family keeps its share of each split
        return f"{adapter.family_of(task)}|{drawn.split_of[task['id']]}"

    chosen = proportional(candidates, request.tasks, stratum)
    named: dict[str, list[str]] = {}
    held_out = set(request.held_out or ())
    for task in chosen:
        split = drawn.split_of[task["id"]]
        if adapter.family_of(task) in held_out:
            split = HELD_OUT_SPLIT
        named.setdefault(split, []).append(task["id"])
    new_ids, splits = opaque_ids(
        request.domain, {"base": [t["id"] for t in chosen], **named}, request.seed
    )
    by_id = {new_ids[t["id"]]: {**t, "id": new_ids[t["id"]]} for t in chosen}
    return [by_id[task_id] for task_id in splits["base"]], splits


def _held_out_options(request: Request) -> dict[str, Any]:
    """The structural hold-outs asked for (none: no key, so older sets keep their bytes)."""
    options: dict[str, Any] = {}
    if request.hold_out_world:
        options["hold_out_world"] = request.hold_out_world
    if request.hold_out_compositions:
        options["hold_out_compositions"] = True
    return options


def _manifest(
    request: Request,
    drawn: Drawn,
    tasks: list[dict[str, Any]],
    splits: Mapping[str, list[str]],
    duplicates: int,
    files: Mapping[str, bytes],
    family_of: Callable[[Mapping[str, Any]], str],
) -> dict[str, Any]:
    levels = Counter(str(t["description"]["difficulty"]["level"]) for t in tasks)
    return {
        "generator": "tau-env generate",
        "generator_version": GENERATOR_VERSION,
        "tau_env_version": tau_env.__version__,
        "domain": request.domain,
        "seed": request.seed,
        "tasks": len(tasks),
        "request": {
            "tasks": request.tasks,
            "families": list(request.families) if request.families else None,
            "world_size": request.world_size,
            "difficulty": list(request.difficulty) if request.difficulty else None,
            "held_out_families": list(request.held_out) if request.held_out else None,
            **_held_out_options(request),
        },
        "world_size": drawn.world_size,
        "families": dict(sorted(Counter(family_of(t) for t in tasks).items())),
        "splits": {name: len(ids) for name, ids in splits.items()},
        "difficulty": {level: levels[level] for level in sorted(levels)},
        "candidates_drawn": len(drawn.tasks),
        "duplicates_removed": duplicates,
        "verified": {"gold_replay_reward_1": len(tasks), "of": len(tasks)},
        "content_hash": content_hash(files),
        "files": len(files),
    }


def _refuse_audit(
    audited: Mapping[str, Any],
    tasks: list[dict[str, Any]],
    family_of: Callable[[Mapping[str, Any]], str],
) -> None:
    """Raise `AuditRefused`, naming the best probe and the families of the tasks it passes."""
    probe = max(audited["probes"], key=lambda name: audited["probes"][name] or 0.0)
    family = {task["id"]: family_of(task) for task in tasks}
    passed = Counter(
        family[task_id]
        for task_id, probes in audited["passed_by_probes"].items()
        if probe in probes
    )
    names = ", ".join(f"{name} ({count})" for name, count in passed.most_common())
    raise AuditRefused(
        f"the probe {probe!r} passes {audited['max_probe_rate']:.1%} of the "
        f"{audited['tasks']} audited tasks, above {audited['limit']:.0%}: it passes tasks of "
        f"{names}; leave those families out (--families) or drop --require-audit; "
        "nothing was written"
    )


def generate_task_set(
    request: Request,
    out: str | Path,
    *,
    force: bool = False,
    progress: Callable[[str], None] | None = None,
) -> Generated:
    """Generate, verify and write the task set `request` asks for under `out`.

    Args:
        request: A checked request (`tau_env.generation.request.checked_request`).
        out: The data folder; the set goes to ``<out>/domains/<domain>/``.
        force: Replace a set already there (else refuse).
        progress: Called with a line on each stage (None: silent).

    Raises:
        InvalidOption: The target exists (without `force`) or is a file; too few distinct
            tasks (`GenerationShortfall`).
        DataError: A task fails its gold replay (a generator bug); nothing is written.
    """
    say = progress or (lambda _line: None)
    out_dir = Path(out).expanduser()
    _check_target(out_dir, request.domain, force)
    adapter = adapter_for(request.domain)
    families = request.families or adapter.families
    say(f"drawing {request.domain} tasks (seed {request.seed})")
    drawn, candidates, duplicates = _candidates(request, adapter, families)
    tasks, splits = _final_tasks(request, adapter, drawn, candidates)
    if adapter.check is not None:
        adapter.check(tasks)
    files = dict(drawn.files)
    if adapter.write_tasks is not None:
        files.update(adapter.write_tasks(tasks, splits))
    else:
        files["tasks.json"] = tasks_text(tasks)
        files["split_tasks.json"] = split_text(splits)
    created = not out_dir.exists()
    out_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=_STAGING_PREFIX, dir=out_dir))
    written = False
    try:
        folder = staging / "domains" / request.domain
        for path, data in files.items():
            (folder / path).parent.mkdir(parents=True, exist_ok=True)
            (folder / path).write_bytes(data)
        shared = f" in {request.workers} processes" if request.workers > 1 else ""
        say(f"verifying {len(tasks)} tasks by gold replay{shared}")
        verify_folder(request.domain, staging, [t["id"] for t in tasks], request.workers)
        manifest = _manifest(request, drawn, tasks, splits, duplicates, files, adapter.family_of)
        if request.audit_sample:
            say(f"auditing {min(request.audit_sample, len(tasks))} tasks with the shortcut probes")
            retrieval = VERIFY_RETRIEVAL.get(request.domain)
            manifest["audit"] = audit_sample(
                request.domain, staging, splits["base"], request.audit_sample, retrieval
            )
            if request.require_audit and not manifest["audit"]["within_limit"]:
                _refuse_audit(manifest["audit"], tasks, adapter.family_of)
        manifest_text = json.dumps(manifest, indent=1) + "\n"
        (folder / MANIFEST_FILE).write_text(manifest_text, encoding="utf-8")
        _check_target(out_dir, request.domain, force)
        target = domain_folder(out_dir, request.domain)
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.exists():
            os.replace(target, staging / "replaced")
        os.replace(folder, target)
        written = True
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        if created and not written:  # a failure leaves no trace, not even the folder
            shutil.rmtree(out_dir, ignore_errors=True)
        clear_domain_cache()  # forget the staging folder's parsed data
    return Generated(target, manifest)
