"""Off-path agents: agents that leave a task's expected path, to see whether a user holds.

A simulated user is easy to keep honest on the happy path; what its instructions are for is
the rest: an agent that offers a transfer, proposes something else, asks twice for
confirmation with a wrong scope, asks a question the task never needed, or pushes back when
the customer says no. Each agent here says a fixed list of lines, one per turn after the
customer's opening, then stops. None of them reads the task: `OFF_PATH_LINES` are generic;
a benchmark may give task-specific lines (``benchmarks/off_path.py`` writes them from its
hand-written labels of what each official task's instructions say).

| name | what it says |
|---|---|
| ``offer_transfer`` | offers a transfer to a human, then offers it again |
| ``refuse`` | turns the request down three times |
| ``alternative`` | proposes an alternative, then pushes it |
| ``confirm_twice`` | asks twice to confirm a scope wider than asked (everything, plus insurance) |
| ``off_script`` | asks why, then for details a task rarely needs |
| ``push_back`` | offers an extra (travel insurance), then pushes it when declined |
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from tau_env.actions import Action, SendMessage, Stop
from tau_env.env.aec import SideContext
from tau_env.env.conversation import SideView
from tau_env.tasks.model import Task

__all__ = ["OFF_PATH_LINES", "LineAgent", "off_path_factories"]

OFF_PATH_LINES: dict[str, tuple[str, ...]] = {
    "offer_transfer": (
        "Would you like me to transfer you to a human agent?",
        "Are you sure? I can transfer you to a human agent right now if you prefer.",
    ),
    "refuse": (
        "I'm sorry, but I can't do that.",
        "I'm sorry, that's really not possible.",
        "I understand, but I can't make an exception.",
    ),
    "alternative": (
        "I can't do exactly that, but I could offer you an alternative instead. "
        "Would you like that?",
        "It's a good option, really. Shall I go ahead with the alternative?",
    ),
    "confirm_twice": (
        "Just to confirm: I'll go ahead with everything you asked for and add travel "
        "insurance for $30. Shall I proceed?",
        "Sorry, to confirm once more: everything you asked for plus the insurance. "
        "Shall I proceed?",
    ),
    "off_script": (
        "Before I continue, could you tell me why you need this?",
        "And could you give me your email address and your date of birth?",
    ),
    "push_back": (
        "Would you also like to add travel insurance to this for $30?",
        "Are you sure? I'd really recommend it. Shall I add it?",
    ),
}
"""Each off-path agent's generic lines, in the order it says them."""


class LineAgent:
    """Says its lines, one per turn after the customer's opening, then stops.

    Args:
        task: Unused (the agent knows nothing of the task).
        lines: What it says, in order.
    """

    def __init__(self, task: Task | None = None, *, lines: Sequence[str] = ()) -> None:
        self.lines = list(lines)

    def act(self, view: SideView, context: SideContext) -> Action:
        """The next line, or a stop once they are said."""
        if self.lines:
            return SendMessage(content=self.lines.pop(0))
        return Stop()


def off_path_factories(
    lines: dict[str, Sequence[str]] | None = None,
) -> dict[str, Callable[[Task], LineAgent]]:
    """A factory per off-path agent (``OFF_PATH_LINES`` unless `lines` are given)."""
    chosen = OFF_PATH_LINES if lines is None else lines
    return {name: partial(LineAgent, lines=said) for name, said in chosen.items()}
