"""``tau-env generate``'s pipeline: draw, deduplicate, measure, select, split, verify, write.

1. The domain's generator draws a world and more candidate tasks than asked for (`Adapter`),
   handing each over as it draws it: the candidate goes to a scratch file in the staging
   folder, and a few fields of it stay in memory (`tau_env.generation.candidates`), so memory
   grows with the world, not with the set.
2. Duplicates (same family, starting state, gold plan and checks) are removed; each task gets
   its difficulty features (`difficulty`), and ``--difficulty`` keeps the levels asked for.
3. `select.proportional` keeps exactly the number asked for, every family in its share; the
   generator's split of each kept task stays, and the tasks get plain ids
   (`tau_env.domains.opaque_ids`).
4. The files are written into the hidden staging folder inside the output folder (the chosen
   tasks read back from the scratch file one at a time, which is then deleted), loaded from
   there exactly as ``--data-dir`` loads them, and every task is played with the oracle agent
   and the gold user: each must reach reward 1.0.
5. A sample of every family's tasks is played with the shortcut probes (`audit_sample`; each
   probe's pass rate, overall and per family, goes into the manifest). With
   ``--require-audit``, a set a probe passes too often is selected again with the families
   it passes cut (`tau_env.generation.audit_regeneration`), or refused.
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
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import tau_env
from tau_env.domain import clear_domain_cache, domain_definition
from tau_env.domains.opaque_ids import opaque_ids
from tau_env.errors import InvalidOption
from tau_env.generation.audit_regeneration import (
    AuditRefused,
    Quota,
    regenerating,
    require_audit,
)
from tau_env.generation.audit_sample import audit_sample, stratified
from tau_env.generation.candidates import Candidate, Candidates
from tau_env.generation.drawn import Adapter, Drawn, Request
from tau_env.generation.held_out import split_compositions, split_world
from tau_env.generation.manifest import GENERATOR_VERSION, MANIFEST_FILE, folder_hash
from tau_env.generation.render import split_text, write_tasks_text
from tau_env.generation.request import adapter_for
from tau_env.generation.select import distinct, proportional, quotas, weighted
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


@dataclass
class _Draw:
    """A draw that leaves enough candidates: the world, the candidates and what is kept of them.

    Attributes:
        drawn: The world's files and the generator's splits (with the held-out splits).
        pool: Every candidate handed over (their JSON in the spool file).
        kept: The distinct candidates of the wanted levels, in draw order.
        candidates: The candidates drawn (those ``--hold-out-world`` drops left out).
        duplicates: Candidates left out as duplicates of earlier ones.
    """

    drawn: Drawn
    pool: Candidates
    kept: list[Candidate]
    candidates: int
    duplicates: int


def _candidates(
    request: Request, adapter: Adapter, families: tuple[str, ...], spool: Path
) -> _Draw:
    """The draw with enough distinct tasks of the wanted levels, and how many were duplicates.

    The candidates are handed over one at a time into a spool file (`Candidates`). With
    family weights, enough means every family's quota (`select.quotas`): a family whose
    weight asks for more than its natural share makes the next draw larger by that much.
    """
    toolbox = domain_definition(request.domain).toolbox
    found = 0
    boost = 1.0
    for overshoot in OVERSHOOTS:
        wanted = math.ceil(request.tasks * overshoot * boost) + 4
        pool = Candidates(spool, adapter.family_of, toolbox)
        try:
            drawn = adapter.draw(request, families, wanted, pool.take)
            _held_out(request, adapter, drawn, pool)
        except BaseException:
            pool.close()
            raise
        drawn_here = [c for c in pool.drawn if c.id in drawn.split_of]  # none dropped
        unique = distinct(drawn_here, lambda c: c.key)
        kept = [c for c in unique if request.difficulty is None or c.level in request.difficulty]
        found = len(kept)
        short = _short_by(request, kept)
        if short is None:
            return _Draw(drawn, pool, kept, len(drawn_here), len(drawn_here) - len(unique))
        pool.close()
        boost = max(boost, min(short, _MAX_BOOST))
    raise GenerationShortfall(
        f"the {request.domain} generator found only {found} distinct tasks "
        + ("of those families and levels " if request.families or request.difficulty else "")
        + f"for --tasks {request.tasks}"
        + (" in those weights" if request.weights else "")
        + "; ask for fewer"
        + (", or a larger --world-size" if adapter.min_world is not None else "")
    )


def _held_out(request: Request, adapter: Adapter, drawn: Drawn, pool: Candidates) -> None:
    """The structural held-out splits asked for, in the draw's splits (`held_out`)."""
    if adapter.world_split and request.hold_out_world:
        database = drawn.files["db.json"]
        tasks = ((c.id, task) for c, task in pool.tasks())
        split_world(drawn.split_of, database, request.hold_out_world, request.seed, tasks)
    if adapter.compositional_split and request.hold_out_compositions:
        split_compositions(drawn.split_of, drawn.composed)


_MAX_BOOST = 20.0
"""The most a family weight multiplies the draw by (beyond, the request is refused)."""


def _short_by(request: Request, kept: list[Candidate]) -> float | None:
    """None when `kept` can fill the request; else how many times more it needs (at least 1)."""
    weights = request.family_weights
    if weights is None:
        return None if len(kept) >= request.tasks else 1.0
    quota = quotas(weights, request.tasks)
    have = Counter(candidate.family for candidate in kept)
    needed = max(quota[family] / max(have[family], 1) for family in quota)
    return None if needed <= 1.0 else needed


def _final_tasks(
    request: Request, split_of: Mapping[str, str], candidates: list[Candidate]
) -> tuple[list[tuple[Candidate, str]], dict[str, list[str]]]:
    """The selected candidates with their plain ids, in ``base`` order, and the splits."""

    def stratum(candidate: Candidate) -> str:  # every family keeps its share of each split
        return f"{candidate.family}|{split_of[candidate.id]}"

    weights = request.family_weights
    if weights is not None:
        chosen = weighted(candidates, weights, request.tasks, lambda c: c.family, stratum)
    else:
        chosen = proportional(candidates, request.tasks, stratum)
    named: dict[str, list[str]] = {}
    held_out = set(request.held_out or ())
    for candidate in chosen:
        split = split_of[candidate.id]
        if candidate.family in held_out:
            split = HELD_OUT_SPLIT
        named.setdefault(split, []).append(candidate.id)
    new_ids, splits = opaque_ids(
        request.domain, {"base": [c.id for c in chosen], **named}, request.seed
    )
    by_id = {new_ids[c.id]: (c, new_ids[c.id]) for c in chosen}
    return [by_id[task_id] for task_id in splits["base"]], splits


def _selected(
    request: Request, quota: Quota | None, draw: _Draw
) -> tuple[list[tuple[Candidate, str]], dict[str, list[str]]]:
    """`_final_tasks` of the draw, or with `quota`'s counts (they replace any weights)."""
    split_of = draw.drawn.split_of
    if quota is None:
        return _final_tasks(request, split_of, draw.kept)
    again = quota.select(draw.kept, lambda c: c.family, lambda c: split_of[c.id])
    return _final_tasks(replace(request, weights=None), split_of, again)


@dataclass(frozen=True)
class _Kept:
    """What the manifest and the audit's refusal need of the selected tasks.

    The tasks themselves are read from the spool one at a time as they are written: what
    stays is a few counts and each task's family, not the tasks.
    """

    families: dict[str, int]
    levels: dict[str, int]
    family_of_id: dict[str, str]

    @classmethod
    def of(cls, chosen: list[tuple[Candidate, str]]) -> _Kept:
        levels = Counter(candidate.level for candidate, _ in chosen)
        family_of_id = {new_id: candidate.family for candidate, new_id in chosen}
        return cls(
            dict(sorted(Counter(family_of_id.values()).items())),
            {level: levels[level] for level in sorted(levels)},
            family_of_id,
        )


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
    world_size: int,
    candidates_drawn: int,
    kept: _Kept,
    splits: Mapping[str, list[str]],
    duplicates: int,
    folder: Path,
) -> dict[str, Any]:
    tasks = len(kept.family_of_id)
    return {
        "generator": "tau-env generate",
        "generator_version": GENERATOR_VERSION,
        "tau_env_version": tau_env.__version__,
        "domain": request.domain,
        "seed": request.seed,
        "tasks": tasks,
        "request": {
            "tasks": request.tasks,
            "families": list(request.families) if request.families else None,
            "family_weights": request.family_weights,
            "world_size": request.world_size,
            "difficulty": list(request.difficulty) if request.difficulty else None,
            "held_out_families": list(request.held_out) if request.held_out else None,
            **_held_out_options(request),
        },
        "world_size": world_size,
        "families": kept.families,
        "splits": {name: len(ids) for name, ids in splits.items()},
        "difficulty": kept.levels,
        "candidates_drawn": candidates_drawn,
        "duplicates_removed": duplicates,
        "verified": {"gold_replay_reward_1": tasks, "of": tasks},
        "content_hash": folder_hash(folder),
        "files": sum(1 for path in folder.rglob("*") if path.is_file()),
    }


def _write_files(folder: Path, files: Mapping[str, bytes]) -> None:
    for path, data in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_bytes(data)


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
            tasks (`GenerationShortfall`); ``--require-audit`` and no family cut brings
            every probe within 5% (`AuditRefused`).
        DataError: A task fails its gold replay (a generator bug); nothing is written.
    """
    say = progress or (lambda _line: None)
    # --require-audit: a set a probe passes too often is generated again with family counts
    # (`tau_env.generation.audit_regeneration`); otherwise `_generate` runs once.
    return regenerating(lambda quota: _generate(request, out, force, say, quota), say)


def _generate(
    request: Request, out: str | Path, force: bool, say: Callable[[str], None], quota: Quota | None
) -> Generated:
    """`generate_task_set`, the set selected with `quota`'s family counts (None: shares)."""
    out_dir = Path(out).expanduser()
    _check_target(out_dir, request.domain, force)
    adapter = adapter_for(request.domain)
    families = request.families or adapter.families
    created = not out_dir.exists()
    out_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=_STAGING_PREFIX, dir=out_dir))
    written = False
    pool: Candidates | None = None
    try:
        say(f"drawing {request.domain} tasks (seed {request.seed})")
        draw = _candidates(request, adapter, families, staging / "candidates.jsonl")
        drawn, pool = draw.drawn, draw.pool
        chosen, splits = _selected(request, quota, draw)
        candidates_drawn, duplicates = draw.candidates, draw.duplicates
        available = dict(Counter(candidate.family for candidate in draw.kept))
        del draw
        kept = _Kept.of(chosen)
        folder = staging / "domains" / request.domain
        folder.mkdir(parents=True)
        _write_files(folder, drawn.files)
        world_size = drawn.world_size
        del drawn  # the world's files and the candidates' splits: not needed any more
        if adapter.write_tasks is not None:
            adapter.write_tasks(folder, pool.written(chosen), splits)
        else:  # one task at a time, each read from the spool and dropped once written
            write_tasks_text(folder / "tasks.json", pool.written(chosen))
            (folder / "split_tasks.json").write_bytes(split_text(splits))
        pool.close()
        pool = None  # nor are the candidates' records: verification starts with neither
        del chosen
        shared = f" in {request.workers} processes" if request.workers > 1 else ""
        shared = " over Ray" if request.backend == "ray" else shared
        say(f"verifying {len(kept.family_of_id)} tasks by gold replay{shared}")
        verify_folder(request.domain, staging, splits["base"], request.workers, request.backend)
        manifest = _manifest(
            request, world_size, candidates_drawn, kept, splits, duplicates, folder
        )
        if request.audit_sample:
            family = kept.family_of_id
            sample = stratified(splits["base"], family, request.audit_sample)
            say(f"auditing {len(sample)} tasks with the shortcut probes")
            retrieval = VERIFY_RETRIEVAL.get(request.domain)
            manifest["audit"] = audit_sample(
                request.domain, staging, splits["base"], family, request.audit_sample, retrieval
            )
            if request.require_audit:  # regenerates (raises) or refuses when a probe passes
                require_audit(manifest["audit"], kept.families, available, quota)
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
        if pool is not None:
            pool.close()
        shutil.rmtree(staging, ignore_errors=True)
        if created and not written:  # a failure leaves no trace, not even the folder
            shutil.rmtree(out_dir, ignore_errors=True)
        clear_domain_cache()  # forget the staging folder's parsed data
    return Generated(target, manifest)
