"""Observation and action spaces of the two sides.

Text uses `Unicode`, a `gymnasium.spaces.Text` whose ``contains`` checks only type and length:
plain `Text` rejects spaces, accents and punctuation, so real dialogue would be "out of bounds"
and fail PettingZoo's ``api_test``.
"""

from __future__ import annotations

import string
from typing import Any

import numpy as np
from gymnasium import spaces

__all__ = [
    "ROLE_INDEX",
    "TOOL_NAME_LENGTH",
    "Unicode",
    "action_space",
    "message_space",
    "observation_space",
]

ROLE_INDEX: dict[str, int] = {"assistant": 0, "user": 1, "tool": 2}
"""Message role -> the ``role`` entry of an observed message."""

TOOL_NAME_LENGTH = 256
"""Bound of the ``tool_name`` entry of an observed message (longer names are clipped)."""

_SAMPLE_CHARSET = string.ascii_letters + string.digits + " .,;:!?'\"-_()[]{}#@/" + "éüñç€你好"


_CHAR_LIST = tuple(_SAMPLE_CHARSET)
_CHAR_SET = frozenset(_CHAR_LIST)
_CHAR_INDEX = {char: np.int32(index) for index, char in enumerate(_CHAR_LIST)}
_CHAR_STR = "".join(sorted(_CHAR_LIST))


class Unicode(spaces.Text):
    """Any Python string whose length lies in [min_length, max_length].

    Samples are short (at most 64 characters) and drawn from a small mixed charset: random
    text only exercises code paths, and long random strings would just be slow. The charset
    tables are built once and shared (`Text` builds them per instance, about 10 KB each, which
    dominated the memory of an open episode); each instance keeps its own random generator.
    """

    def __init__(self, max_length: int, *, min_length: int = 0, seed: int | None = None) -> None:
        self.min_length = min_length
        self.max_length = max_length
        self._char_set = _CHAR_SET
        self._char_list = _CHAR_LIST
        self._char_index = _CHAR_INDEX
        self._char_str = _CHAR_STR
        spaces.Space.__init__(self, dtype=str, seed=seed)

    def contains(self, x: Any) -> bool:
        """True for any string of acceptable length, whatever its characters."""
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        """A short random string (or the parent's sampling when a mask is given)."""
        if mask is not None or probability is not None:
            return str(super().sample(mask=mask, probability=probability))
        upper = min(self.max_length, self.min_length + 64)
        length = int(self.np_random.integers(self.min_length, upper + 1))
        picks = self.np_random.integers(0, len(_SAMPLE_CHARSET), size=length)
        return "".join(_SAMPLE_CHARSET[i] for i in picks)

    def __repr__(self) -> str:
        return f"Unicode({self.min_length}, {self.max_length})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Unicode)
            and other.min_length == self.min_length
            and other.max_length == self.max_length
        )


def message_space(max_text_length: int) -> spaces.Dict:
    """One observed message: who sent it, its text, the tool it answers and the error flag."""
    return spaces.Dict(
        {
            "role": spaces.Discrete(len(ROLE_INDEX)),
            "content": Unicode(max_text_length),
            "tool_name": Unicode(TOOL_NAME_LENGTH),
            "error": spaces.Discrete(2),
        }
    )


def observation_space(max_text_length: int, max_steps: int) -> spaces.Dict:
    """What a side observes at its turn.

    Keys:
        messages: The messages that reached this side since it last acted (the other side's
            text, its own tool results), oldest first.
        instructions: This side's standing instructions: the policy for the agent, the
            scenario for the user. The same string object on every step (costs nothing).
        step: Steps taken so far in the episode, counted as the reference counts them.
    """
    return spaces.Dict(
        {
            "messages": spaces.Sequence(message_space(max_text_length)),
            "instructions": Unicode(max_text_length),
            "step": spaces.Discrete(max_steps + 2),
        }
    )


def action_space(num_tools: int, max_text_length: int) -> spaces.Dict:
    """A side's action as a `Dict` sample (see `tau_env.actions.decode_action`).

    Keys:
        kind: 0 send a message, 1 call a tool, 2 stop.
        content: The message text (kind 0).
        tool: Index into the side's tool list (kind 1).
        arguments: The tool's arguments as JSON text (kind 1).
    """
    return spaces.Dict(
        {
            "kind": spaces.Discrete(3),
            "content": Unicode(max_text_length),
            "tool": spaces.Discrete(max(num_tools, 1)),
            "arguments": Unicode(max_text_length),
        }
    )
