r"""Records as JSON text and back, losslessly, for the store and for records crossing processes.

pydantic writes JSON as UTF-8 and refuses a string that has no UTF-8 form: a lone surrogate
such as ``"\ud83d"``, which is what a JSON ``\ud83d`` escape in a model's reply decodes to
(half of an emoji cut off), or what Python makes of undecodable bytes. Such a record is
written with JSON's ASCII escapes instead (the string comes back identical); a record that
holds a value JSON cannot represent at all raises `UnstorableRecord`, and the caller records
that one episode as a failed attempt with the reason (`unstorable_failure`) instead of losing
the run.
"""

from __future__ import annotations

import json
from typing import TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import PydanticSerializationError

from tau_env.errors import TauEnvError
from tau_env.store.records import EpisodeRecord, FailureRecord

__all__ = ["UnstorableRecord", "read_record", "record_json", "unstorable_failure"]

Record = TypeVar("Record", bound=BaseModel)


class UnstorableRecord(TauEnvError, ValueError):
    """A record holds a value that JSON cannot represent (the message says which)."""


def record_json(record: BaseModel) -> str:
    """The record as JSON text that `read_record` turns back into an equal record.

    Raises:
        UnstorableRecord: A value of the record has no JSON form (an object of an unknown
            type a plug-in put in a trajectory, for example).
    """
    try:
        return record.model_dump_json()
    except PydanticSerializationError:
        pass  # most often a string without a UTF-8 form: escaped below
    try:
        # ensure_ascii: every non-ASCII character, lone surrogates included, as a \\uXXXX escape.
        return json.dumps(record.model_dump(mode="json"), ensure_ascii=True)
    except (PydanticSerializationError, TypeError, ValueError) as error:
        raise UnstorableRecord(f"{type(record).__name__} has no JSON form: {error}") from None


def read_record(model: type[Record], text: str) -> Record:
    """A record from `record_json`'s text (also reads the escapes pydantic's parser refuses)."""
    try:
        return model.model_validate_json(text)
    except ValidationError as error:
        if not any(detail["type"] == "json_invalid" for detail in error.errors()):
            raise
    # pydantic's JSON parser rejects the escape of a lone surrogate; Python's reads it.
    return model.model_validate(json.loads(text))


def unstorable_failure(record: EpisodeRecord, error: UnstorableRecord) -> FailureRecord:
    """The failed attempt that stands for an episode that cannot be stored (resume replays it)."""
    error_text = f"{type(error).__name__}: the finished episode could not be stored: {error}"
    return FailureRecord.of_episode(record, "crash", error_text, record.duration)
