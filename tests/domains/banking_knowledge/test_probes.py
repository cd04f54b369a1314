"""Every discoverable tool's checks, outputs and error texts, against the reference.

``reference_probes.json`` holds, per probe of `probes.py`, a digest of the reference's outputs
(text and error flag of every call) and final database hash. Probes listed as divergent are
the documented difference: a call that raises after writing keeps its partial write in the
reference, while here a raising call changes nothing.
"""

import hashlib
import json
from pathlib import Path

from tau_env.messages import side_of
from tests.domains.banking_knowledge.probes import probes

REFERENCE = json.loads((Path(__file__).parent / "reference_probes.json").read_text())


def _digest(initial, calls) -> str:
    world = initial.fork()
    outputs = []
    for requestor, name, arguments in calls:
        result = world.call_tool(side_of(requestor), name, arguments)
        outputs.append([result.content, result.error])
    # Hashing the whole database costs ~10 ms; most probes change nothing.
    state = world.agent_db.reference_hash() if world.differences(initial) else "unchanged"
    payload = json.dumps([outputs, state])
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


def against_reference(bank, listed, reference, describe):
    """Each probe's digest against the reference's.

    Returns the probes that differ (``#index tool: describe(probe)``) and, for each probe the
    reference lists as divergent, whether it matched.
    """
    mismatched = []
    divergent = []
    for index, (probe, expected) in enumerate(zip(listed, reference["digests"], strict=True)):
        tool, task_id, calls = probe
        same = _digest(bank.prepare(bank.task(task_id)).initial_world, calls) == expected
        if str(index) in reference["divergent"]:
            divergent.append(same)
        elif not same:
            mismatched.append(f"#{index} {tool}: {describe(probe)}")
    return mismatched, divergent


def test_probes__every_output_error_and_hash_matches_the_reference(bank):
    listed = probes(bank)
    assert len(listed) == len(REFERENCE["digests"]) == 2341
    mismatched, divergent = against_reference(bank, listed, REFERENCE, lambda p: p[2][-1][2])
    assert mismatched == []
    assert divergent == [False] * 5  # still different, for the documented reason only


def test_probes__a_raising_call_changes_nothing(world):
    played = world("task_031")
    name = "file_credit_card_transaction_dispute_4829"
    arguments = {
        "transaction_id": "txn_adea68821a1d",
        "card_action": "keep_active",
        "card_last_4_digits": "5320",
        "full_name": "Fatima Al-Hassan",
        "user_id": "890389b165",
        "phone": "313-555-0246",
        "email": "x@y.z",
        "address": "somewhere",
        "contacted_merchant": True,
        "purchase_date": "11/07/2025",
        "issue_noticed_date": "11/14/2025",
        "dispute_reason": "duplicate_charge",
        "resolution_requested": "full_refund",
        "eligible_for_provisional_credit": False,
        "partial_refund_amount": "bogus",
    }
    played.call_tool("agent", "unlock_discoverable_agent_tool", {"agent_tool_name": name})
    before = played.agent_db.reference_hash()
    call = {"agent_tool_name": name, "arguments": json.dumps(arguments)}
    result = played.call_tool("agent", "call_discoverable_agent_tool", call)
    assert result.error
    assert result.content == "Error: Unknown format code 'f' for object of type 'str'"
    assert played.agent_db.reference_hash() == before
