"""Run fingerprints: settings added later do not change the fingerprint of runs without them."""

import hashlib
import json

from tau_env.domain import load_domain
from tau_env.rollout.provenance import run_fingerprint
from tests.rollout.conftest import mock_config


def test_fingerprint__unset_retrieval_leaves_the_earlier_payload_unchanged():
    config = mock_config(trials=1, tasks=("create_task",))
    domain = load_domain("mock")
    payload = {
        "env_id": domain.env_id,
        "policy": domain.policy,
        "tasks": [domain.task("create_task").model_dump(mode="json")],
        # The payload before retrieval settings (and the grading, never fingerprinted) existed.
        "config": config.model_dump(
            mode="json", exclude={"run_id", "judge", "retrieval", "retrieval_options", "grading"}
        ),
    }
    text = json.dumps(payload, sort_keys=True, default=str)
    assert run_fingerprint(config) == hashlib.sha256(text.encode()).hexdigest()[:16]


def test_fingerprint__the_grading_is_not_part_of_it():
    """The strict reading changes how grades are read, not what an episode is."""
    config = mock_config(trials=1, tasks=("create_task",))
    strict = config.model_copy(update={"grading": "strict"})
    assert run_fingerprint(strict) == run_fingerprint(config)
