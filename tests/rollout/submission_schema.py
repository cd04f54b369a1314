"""The leaderboard's ``submission.json`` rules, as a JSON Schema written for these tests.

Written from the facts of the leaderboard's submission guide and its ``schema.json`` (draft 7):
the six required fields; per domain pass^1..pass^4 as percentages in [0, 100] or null, a cost
>= 0 or null and a retrieval configuration (required for banking_knowledge by the guide); the
four domains it ranks and no other; closed objects where the leaderboard's are closed. Where
this schema is stricter (no unknown top-level keys, dates as YYYY-MM-DD), a file it accepts is
accepted by the leaderboard's as well.
"""

from __future__ import annotations

from typing import Any

_STRING = {"type": "string"}
_DATE = {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def _closed(properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "properties": properties,
        "required": list(required),
    }


_PASS = _nullable({"type": "number", "minimum": 0, "maximum": 100})

DOMAIN_RESULTS = _closed(
    {
        "pass_1": _PASS,
        "pass_2": _PASS,
        "pass_3": _PASS,
        "pass_4": _PASS,
        "cost": _nullable({"type": "number", "minimum": 0}),
        "retrieval_config": _nullable(_STRING),
    }
)

BANKING_RESULTS = {
    "allOf": [DOMAIN_RESULTS, {"required": ["retrieval_config"]}],
    "properties": {"retrieval_config": _STRING},
}

SUBMISSION: dict[str, Any] = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    **_closed(
        {
            "model_name": _STRING,
            "model_organization": _STRING,
            "submitting_organization": _STRING,
            "submission_date": _DATE,
            "submission_type": {"enum": ["standard", "custom"]},
            "modality": {"enum": ["text", "voice"]},
            "contact_info": _closed(
                {
                    "email": _nullable(_STRING),
                    "name": _nullable(_STRING),
                    "github": _nullable(_STRING),
                }
            ),
            "results": _closed(
                {
                    "retail": _nullable(DOMAIN_RESULTS),
                    "airline": _nullable(DOMAIN_RESULTS),
                    "telecom": _nullable(DOMAIN_RESULTS),
                    "banking_knowledge": {"anyOf": [BANKING_RESULTS, {"type": "null"}]},
                }
            ),
            "is_new": {"type": "boolean"},
            "trajectories_available": {"type": "boolean"},
            "trajectory_files": _nullable({"type": "object", "additionalProperties": _STRING}),
            "references": _nullable({"type": "array"}),
            "methodology": _nullable(
                _closed(
                    {
                        "evaluation_date": _nullable(_DATE),
                        "tau2_bench_version": _nullable(_STRING),
                        "user_simulator": _nullable(_STRING),
                        "notes": _nullable(_STRING),
                        "verification": _nullable(
                            _closed(
                                {
                                    "modified_prompts": _nullable({"type": "boolean"}),
                                    "omitted_questions": _nullable({"type": "boolean"}),
                                    "details": _nullable(_STRING),
                                }
                            )
                        ),
                    }
                )
            ),
            "reasoning_effort": _nullable(_STRING),
        },
        required=(
            "model_name",
            "model_organization",
            "submitting_organization",
            "submission_date",
            "contact_info",
            "results",
        ),
    ),
}
"""The schema a written ``submission.json`` must satisfy."""
