"""An oracle that asks for the user's steps in plain English, as an LLM agent would.

`ParaphrasingOracleAgent` follows the task's gold plan (it reads it: an oracle, an upper bound
and a test fixture, never a baseline to compare agents with) like `OracleAgent`, but words each
user step with one of the wordings it is given instead of the step's call ("Could you flip the
mobile data switch?" rather than ``toggle_data()``). It measures whether the scripted user
understands how agents talk: with the held-out half of the paraphrase corpus
(`tau_env.wrappers.users.comprehension.step_wordings`) in ``benchmarks/user_understanding.py``
and in tests/wrappers/users/test_comprehension.py.

Which wording a step takes is fixed by the episode's ``rotation``: step ``i`` takes the
``(rotation + i)``-th of the wordings that fit it (its tool, and arguments that agree with the
step's), so a few rotations say every wording.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from tau_env.actions import SendMessage
from tau_env.baselines.oracle import OracleAgent
from tau_env.tasks.model import GoldAction, Task

__all__ = ["ParaphrasingOracleAgent", "StepWordings"]

StepWordings = Mapping[str, Sequence[tuple[Mapping[str, Any], str]]]
"""Per user tool, ``(stated arguments, text)``: a text asks for the tool with those arguments."""


class ParaphrasingOracleAgent(OracleAgent):
    """`OracleAgent` that words each user step with a given wording, as text alone.

    Args:
        task: The task whose gold plan to follow.
        wordings: The wordings to choose from (`StepWordings`).
        rotation: Which of the fitting wordings the first step takes (the next step the next).

    Raises:
        ValueError: A user step of the plan has no fitting wording (at the first action).
    """

    def __init__(self, task: Task, wordings: StepWordings, rotation: int = 0) -> None:
        super().__init__(task)
        self.wordings = wordings
        self.rotation = rotation
        self._asked = 0

    @classmethod
    def factory(
        cls, wordings: StepWordings, rotation: int = 0
    ) -> Callable[[Task], ParaphrasingOracleAgent]:
        """A participant factory (task -> agent) with these wordings and rotation."""
        return partial(cls, wordings=wordings, rotation=rotation)

    def ask_user(self, steps: list[GoldAction]) -> SendMessage:
        """The message asking for `steps`: one fitting wording per step, in order."""
        texts = []
        for step in steps:
            known = self.wordings.get(step.name, ())
            fitting = [text for stated, text in known if _fits(stated, step)]
            if not fitting:
                raise ValueError(f"no wording asks for {step.call_text()}")
            texts.append(fitting[(self.rotation + self._asked) % len(fitting)])
            self._asked += 1
        return SendMessage(content=" ".join(texts))


def _fits(stated: Mapping[str, Any], step: GoldAction) -> bool:
    """The wording's stated arguments are the step's (a wording states all it asks for)."""
    return dict(stated) == dict(step.arguments)
