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
step's), so a few rotations say every wording. When the user says it did not follow, the
agent asks again (`OracleAgent`): with the same words, or, with ``rephrase``, in the next
fitting wording, as an agent told "I'm not sure what you mean" would. With ``grouped``, the user
steps that follow one another in the plan (no agent step between them) are asked in one
message, their wordings one after the other, as an LLM agent often lists several steps.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from typing import Any

from tau_env.actions import Action, CallTool, SendMessage, Stop
from tau_env.baselines.oracle import OracleAgent
from tau_env.env.aec import SideContext
from tau_env.env.conversation import SideView
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
        rephrase: Ask again in the next fitting wording (not the same words) when the user
            says it did not follow.
        grouped: Ask for consecutive user steps in one message.

    Raises:
        ValueError: A user step of the plan has no fitting wording (at the first action).
    """

    def __init__(
        self,
        task: Task,
        wordings: StepWordings,
        rotation: int = 0,
        rephrase: bool = False,
        grouped: bool = False,
    ) -> None:
        super().__init__(task)
        self.wordings = wordings
        self.rotation = rotation
        self.rephrase = rephrase
        self.grouped = grouped
        self._asked = 0
        self._asks: dict[int, tuple[list[GoldAction], int]] = {}  # message -> steps, wording

    @classmethod
    def factory(
        cls,
        wordings: StepWordings,
        rotation: int = 0,
        rephrase: bool = False,
        grouped: bool = False,
    ) -> Callable[[Task], ParaphrasingOracleAgent]:
        """A participant factory (task -> agent) with these wordings and rotation."""
        return partial(
            cls, wordings=wordings, rotation=rotation, rephrase=rephrase, grouped=grouped
        )

    def actions(self) -> Iterator[Action]:
        """`OracleAgent.actions`; with ``grouped``, consecutive user steps in one message."""
        if not self.grouped:
            yield from super().actions()
            return
        steps: list[GoldAction] = []
        for step in self.plan:
            if step.requestor != "assistant":
                steps.append(step)
                continue
            if steps:
                yield self.ask_user(steps)
                steps = []
            yield CallTool(name=step.name, arguments=dict(step.arguments))
        if steps:
            yield self.ask_user(steps)
        yield SendMessage(content=self._closing())
        yield Stop()

    def act(self, view: SideView, context: SideContext) -> Action:
        """`OracleAgent.act`; a request asked again is reworded when ``rephrase`` is set."""
        asked = self._last_request
        action = super().act(view, context)
        if self.rephrase and asked is not None and action is asked:
            steps, turn = self._asks[id(asked)]
            action = self._worded(steps, turn + 1)
            self._last_request = action
        return action

    def ask_user(self, steps: list[GoldAction]) -> SendMessage:
        """The message asking for `steps`: one fitting wording per step, in order."""
        message = self._worded(steps, self.rotation + self._asked)
        self._asked += len(steps)
        return message

    def _worded(self, steps: list[GoldAction], turn: int) -> SendMessage:
        """`steps` in the `turn`-th fitting wordings (the next step the next)."""
        texts = []
        for offset, step in enumerate(steps):
            known = self.wordings.get(step.name, ())
            fitting = [text for stated, text in known if _fits(stated, step)]
            if not fitting:
                raise ValueError(f"no wording asks for {step.call_text()}")
            texts.append(fitting[(turn + offset) % len(fitting)])
        message = SendMessage(content=" ".join(texts))
        self._asks[id(message)] = (steps, turn)
        return message


def _fits(stated: Mapping[str, Any], step: GoldAction) -> bool:
    """The wording's stated arguments are the step's (a wording states all it asks for)."""
    return dict(stated) == dict(step.arguments)
