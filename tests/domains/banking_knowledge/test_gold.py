"""Every task's gold plan gives the reference's outputs, byte for byte, and its database hash.

``reference_gold.json`` was recorded by replaying the gold actions of the 97 official tasks in
the reference implementation (tau2-bench a2c0247): per task, the final database hash and a
SHA-256 over every gold call's (output, error flag). No official text is stored.
"""

import hashlib
import json
from pathlib import Path

from tau_env.messages import side_of

REFERENCE = json.loads((Path(__file__).parent / "reference_gold.json").read_text())["tasks"]


def _outputs_digest(world, task) -> tuple[str, int]:
    digest = hashlib.sha256()
    for action in task.gold_actions:
        result = world.call_tool(side_of(action.requestor), action.name, action.arguments)
        digest.update(json.dumps([result.content, result.error]).encode())
        digest.update(b"\n")
    return digest.hexdigest(), len(task.gold_actions)


def test_gold__every_task_reproduces_the_reference_outputs_and_hash(bank, world):
    assert {task.id for task in bank.tasks} == set(REFERENCE)
    mismatches = []
    for task in bank.tasks:
        played = world(task.id)
        digest, calls = _outputs_digest(played, task)
        expected = REFERENCE[task.id]
        if (digest, calls) != (expected["gold_outputs_sha256"], expected["calls"]):
            mismatches.append(f"{task.id}: outputs")
        if played.agent_db.reference_hash() != expected["final_db_hash"]:
            mismatches.append(f"{task.id}: database hash")
    assert mismatches == []


def test_gold__spec_fixtures_hold(bank, world):
    initial = bank.new_world().agent_db.reference_hash()
    assert initial == "af324a7d72aced5889daf6cc044e573ad94ffa3bfe7cf65114fd3cfed5daaa48"
    spec = {
        "task_001": "6f72038a35653e0402b3a993e103df2448875ef05090a53f0e7f66566a0c39ce",
        "task_005": "afeaae8ea93c75983e42c2342f70c84e7c54473558f85c72b6bfd885fed4cdf0",
        "task_074": "73376465f5d613b69761db87472fea2d3f5af4a3009e5a30a047309319ef282d",
        "task_083": "f60f28fc4b306d4239372cb34292b98687e33e2f73cae05aded4b09e1224f0a0",
    }
    for task_id, expected in spec.items():
        played = world(task_id)
        _outputs_digest(played, bank.task(task_id))
        assert played.agent_db.reference_hash() == expected, task_id


def test_gold__task_083_gold_calls_fail_on_the_missing_liability_argument(bank, world):
    task = bank.task("task_083")
    played = world("task_083")
    outputs = [
        played.call_tool(side_of(a.requestor), a.name, a.arguments).content
        for a in task.gold_actions
    ]
    expected = (
        "Error: Invalid arguments: KnowledgeTools.file_debit_card_transaction_dispute_6281() "
        "missing 1 required positional argument: 'customer_max_liability_amount'"
    )
    assert outputs.count(expected) == 4


def test_gold__episodes_never_modify_the_shared_base(bank, world):
    before = bank.data.agent_snapshot.fingerprint()
    for task in bank.tasks:
        _outputs_digest(world(task.id), task)
    assert bank.data.agent_snapshot.fingerprint() == before
