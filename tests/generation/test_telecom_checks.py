"""``tau-env generate --domain telecom`` makes the composer's checks in each task's gold replay.

Beyond reaching reward 1.0, a telecom task must start broken (unless it ends in a transfer),
every gold step must work, and the gold plan's end state must not depend on the seed
(`tau_env.domains.telecom.tasks.build.refusal`). Each test breaks one task of a written set in
one of these ways, so that its gold replay still scores 1.0, and shows the set is refused.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tau_env.cli.main import main
from tau_env.domain import load_domain
from tau_env.errors import DataError
from tau_env.generation.gold_replay import GoldReplay
from tau_env.generation.verify import GenerationError, verify_folder

_Task = dict[str, Any]


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small generated telecom set (verified as it was written)."""
    out = tmp_path_factory.mktemp("telecom-set")
    arguments = ["--domain", "telecom", "--seed", "3", "--tasks", "12", "--audit-sample", "0"]
    assert main(["generate", *arguments, "--out", str(out)]) == 0
    return out


def _fixable(task: _Task) -> bool:
    return "ACTION" not in task["evaluation_criteria"]["reward_basis"]


def _broken_copy(
    written: Path, tmp_path: Path, change: Callable[[_Task], None]
) -> tuple[str, list[str]]:
    """A copy of the set with its first fixable task changed: that task's id, and every id."""
    shutil.copytree(written, tmp_path, dirs_exist_ok=True)
    folder = tmp_path / "domains" / "telecom"
    (folder / "manifest.json").unlink()
    tasks = json.loads((folder / "tasks.json").read_text(encoding="utf-8"))
    broken = next(task for task in tasks if _fixable(task))
    change(broken)
    (folder / "tasks.json").write_text(json.dumps(tasks), encoding="utf-8")
    return broken["id"], [task["id"] for task in tasks]


def _replay_reward(data_dir: Path, task_id: str) -> float | None:
    """The reward of the task's gold replay alone (what the composer's checks add to)."""
    domain = load_domain("telecom", data_dir)
    return GoldReplay(domain).grade(domain.task(task_id)).reward


def _nothing_broken(task: _Task) -> None:
    """Only the customer's number set up, and no gold step: the goal holds from the start."""
    actions = task["initial_state"]["initialization_actions"]
    del actions[1:]
    task["evaluation_criteria"]["actions"] = []


def _failing_step(task: _Task) -> None:
    """A gold step the company refuses (a line the customer does not have); it changes nothing."""
    customer = task["description"]["parameters"]["customer"]
    step = {"customer_id": customer, "line_id": "L9999", "gb_amount": 1.0}
    task["evaluation_criteria"]["actions"].append(
        {
            "action_id": "refuel_data_99",
            "requestor": "assistant",
            "name": "refuel_data",
            "arguments": step,
        }
    )


def _seeded_step(task: _Task) -> None:
    """A refuel of a customer without a draft bill: the new bill's id comes from the seed."""
    step = {"customer_id": "C2002", "line_id": "L2003", "gb_amount": 1.0}
    task["evaluation_criteria"]["actions"].append(
        {
            "action_id": "refuel_data_99",
            "requestor": "assistant",
            "name": "refuel_data",
            "arguments": step,
        }
    )


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (_nothing_broken, "the issues do not break anything"),
        (_failing_step, "gold step refuel_data_99 fails on the starting world"),
        (_seeded_step, "the gold plan's result depends on the seed"),
    ],
)
def test_telecom_set__a_task_the_composer_refuses_is_refused_though_its_replay_scores_1(
    written, tmp_path, change, reason
):
    verify_folder("telecom", written, _ids(written))  # the set as written passes
    task_id, ids = _broken_copy(written, tmp_path, change)
    assert _replay_reward(tmp_path, task_id) == 1.0  # the reward alone would keep it
    with pytest.raises(GenerationError, match=f"{task_id}: refused by its generator: {reason}"):
        verify_folder("telecom", tmp_path, ids)


def test_telecom_set__a_task_whose_setup_fails_is_refused(written, tmp_path):
    def unknown_line(task: _Task) -> None:
        customer = task["description"]["parameters"]["customer"]
        task["initial_state"]["initialization_actions"].append(
            {
                "env_type": "assistant",
                "func_name": "set_data_usage",
                "arguments": {"customer_id": customer, "line_id": "L9999", "data_used_gb": 1.0},
            }
        )

    task_id, ids = _broken_copy(written, tmp_path, unknown_line)
    with pytest.raises(DataError, match=f"{task_id}.*initialization_actions"):
        verify_folder("telecom", tmp_path, ids)


def _ids(data_dir: Path) -> list[str]:
    text = (data_dir / "domains" / "telecom" / "split_tasks.json").read_text(encoding="utf-8")
    ids: list[str] = json.loads(text)["base"]
    return ids
