"""The candidate tasks of a draw, held as a few fields each while their JSON waits in a file.

A generator draws about 1.25 times as many candidates as the set holds, each a JSON object of
a few KB (10 KB and more as Python objects). Held whole, they made ``tau-env generate`` grow
by about 10 KB a task beyond its world (1 GB at N = 100,000). Here each candidate is written
to a spool file as the generator hands it over (`Candidates.take`), and only what choosing
the set needs stays in memory (`Candidate`: its id, family, duplicate key, difficulty level
and where it is in the file). The chosen ones are read back one at a time
when the set is written (`Candidates.written`). The file holds each task as a line of JSON
(the package never unpickles: `tests/reliability/test_no_code_execution.py`), the form the
task is written in anyway.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tau_env.generation.difficulty import difficulty_features
from tau_env.generation.select import task_key
from tau_env.state.world import Toolbox

__all__ = ["Candidate", "Candidates"]

_dumps = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode
"""A task as one line of JSON (no newline inside: JSON escapes it in strings)."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """What the pipeline keeps of one candidate task in memory.

    Attributes:
        id: The generator's id of the task.
        family: Its family (`Adapter.family_of`).
        key: Its duplicate key (`select.task_key`: family, starting state, plan, checks).
        level: Its difficulty level (`difficulty.level_of`).
        start: Where it starts in the spool file.
        size: Its length there in bytes.
    """

    id: str
    family: str
    key: str
    level: str
    start: int
    size: int


class Candidates:
    """A draw's candidates, in draw order: `Candidate` records, their JSON in a spool file.

    `take` is what a generator hands each candidate to (`tau_env.generation.drawn.Take`);
    once the draw is over, `tasks` and `written` read candidates back from the file.
    """

    def __init__(
        self, path: Path, family_of: Callable[[Mapping[str, Any]], str], toolbox: Toolbox
    ) -> None:
        self.path = path
        self.drawn: list[Candidate] = []
        self._family_of = family_of
        self._toolbox = toolbox
        self._spool = path.open("wb")
        self._end = 0

    def take(self, task: Mapping[str, Any], distractors: int | None = None) -> None:
        """Keep one candidate: the task goes to the file, its `Candidate` to `drawn`.

        The task is spooled with its difficulty features in ``description.difficulty``
        (`difficulty.difficulty_features`, worked out once here: the level is kept for
        choosing, the features are what the set holds).
        """
        family = self._family_of(task)
        features = difficulty_features(task, self._toolbox, distractors)
        described = {
            **task,
            "description": {**(task.get("description") or {}), "difficulty": features},
        }
        line = _dumps(described).encode("utf-8") + b"\n"
        self.drawn.append(
            Candidate(
                str(task["id"]),
                family,
                task_key(task, family),
                str(features["level"]),
                self._end,
                len(line),
            )
        )
        self._spool.write(line)
        self._end += len(line)

    def tasks(self) -> Iterator[tuple[Candidate, dict[str, Any]]]:
        """Each candidate with its task as the generator handed it over, in draw order."""
        self._spool.flush()
        with self.path.open("rb") as spool:
            for candidate in self.drawn:
                yield candidate, json.loads(spool.readline())

    def written(self, chosen: Sequence[tuple[Candidate, str]]) -> Iterator[dict[str, Any]]:
        """The chosen candidates as the set holds them, one at a time, in the order given.

        Each gets its new id (in place: the keys keep their order).
        """
        self._spool.flush()
        with self.path.open("rb") as spool:
            for candidate, new_id in chosen:
                spool.seek(candidate.start)
                task = json.loads(spool.read(candidate.size))
                task["id"] = new_id
                yield task

    def close(self) -> None:
        """Close and remove the spool file (the records in `drawn` stay)."""
        self._spool.close()
        self.path.unlink(missing_ok=True)
