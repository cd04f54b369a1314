"""The shared mechanics of the service-desk featurizers (retail, airline).

A desk episode is a customer with a wish, records behind tools, a proposal, a yes, a change and
the figures to tell. `DeskBelief` is the part every desk shares (the customer's facts, the
agent's last question, the proposal's progress); `Template` is one move with its mask; and
`DeskFeaturizer` reads observations, counts moves, and builds the mask and the feature vector
from its domain's templates and `state_features`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar, cast

import numpy as np
from numpy.typing import NDArray

from tau_env.actions import Action, CallTool, SendMessage, Stop
from tau_env.env.spaces import ROLE_INDEX
from tau_env.transfer import TRANSFER_ANNOUNCEMENT, TRANSFER_TOOL

__all__ = [
    "PROGRESS_NAMES",
    "DeskBelief",
    "DeskFeaturizer",
    "Template",
    "ask",
    "desk_state_names",
    "ending_templates",
    "read_template",
]

_USER, _TOOL = ROLE_INDEX["user"], ROLE_INDEX["tool"]
# A fact runs to the end of its sentence: a period before the next capitalised sentence
# ("My order hint is ... Backpack. Sorry, I don't know ...") or the end of the message.
_FACT = re.compile(r"\bMy ([a-z][a-z0-9 ]*?) (?:is|are) (.+?)\.(?=\s+[A-Z]|\s*$)")
_YES = re.compile(r"\b(yes|go ahead|please do|i confirm|confirmed)\b", re.IGNORECASE)


@dataclass
class DeskBelief:
    """What every desk agent tracks.

    Attributes:
        opened: Whether the customer's opening was read (the domain reads its wishes).
        intents: What the customer asked for (the domain reads them from the opening).
        facts: What the customer said (``My <fact> is <value>.``), by key.
        unknown: Facts the customer said it does not know.
        asking: The facts the agent asked for last (a "don't know" marks them unknown).
        proposed: The agent proposed its change and awaits a yes; ``confirmed``: it got one.
        done: Write tools that succeeded.
        quoted: The figures as they stood at the proposal (the change alters their records).
        asked: The customer's last message asked something.
        tool_errors: The agent's failed tool calls.
    """

    opened: bool = False
    intents: set[str] = field(default_factory=set)
    facts: dict[str, str] = field(default_factory=dict)
    unknown: set[str] = field(default_factory=set)
    asking: tuple[str, ...] = ()
    proposed: bool = False
    confirmed: bool = False
    done: list[str] = field(default_factory=list)
    quoted: list[str] = field(default_factory=list)
    asked: bool = False
    tool_errors: int = 0

    def read_user_text(self, text: str) -> None:
        """Facts, "don't know" answers, agreement to a proposal; then the domain's reading."""
        first = not self.opened
        self.opened = True
        for label, value in _FACT.findall(text):
            self.facts[label.replace(" ", "_")] = value
        for label in re.findall(r"don't know my ([a-z ]+?)\.", text):
            self.unknown.add(label.replace(" ", "_"))
        if self.asking and re.search(r"don't know|do not know", text):
            self.unknown.update(key for key in self.asking if key not in self.facts)
        self.asking = ()
        if self.proposed:
            self.confirmed = bool(_YES.search(text))
            self.proposed = False
        self.asked = "?" in text
        self.read_customer(text, opening=first)

    def read_customer(self, text: str, *, opening: bool) -> None:
        """The domain's reading of a customer message (wishes from the opening, ids...)."""

    def read_tool_result(self, tool: str, content: str, error: bool) -> None:
        """The domain's reading of the agent's tool results."""


B = TypeVar("B", bound=DeskBelief)

Applies = Callable[[B, Mapping[str, int]], bool]


@dataclass(frozen=True)
class Template(Generic[B]):
    """One agent move: when it applies (the mask) and the actions it takes."""

    name: str
    applies: Callable[[B, Mapping[str, int]], bool]
    build: Callable[[B], list[Action]]


def ask(name: str, keys: tuple[str, ...], text: str) -> Template[B]:
    """A question for facts: formable while one of `keys` is unanswered (twice at most).

    Whether the wish needs the fact is the agent's decision, not the mask's.
    """

    def applies(b: B, counts: Mapping[str, int]) -> bool:
        open_keys = [k for k in keys if k not in b.facts and k not in b.unknown]
        return bool(open_keys) and counts.get(name, 0) < 2

    def build(b: B) -> list[Action]:
        b.asking = keys
        return [SendMessage(content=text)]

    return Template(name, applies, build)


def read_template(
    name: str, tool: str, arguments: Callable[[B], dict[str, Any] | None]
) -> Template[B]:
    """A call of the read tool `tool`, applicable while `arguments` finds its arguments."""
    return Template(
        name,
        lambda b, counts: arguments(b) is not None,
        lambda b: [CallTool(name=tool, arguments=arguments(b) or {})],
    )


_SORRY = "I'm sorry, but I cannot do that under our policy."


def ending_templates(
    writes: Callable[[B], Sequence[CallTool | None]],
    plans: Mapping[str, str],
    figures: Callable[[B], list[str]],
    *,
    can_refuse: Callable[[B], bool],
    refusals: Mapping[str, str],
    ready: Callable[[B], bool] = lambda b: True,
) -> tuple[Template[B], ...]:
    """propose, act, tell, the refusals, transfer, end: the moves every desk ends with.

    The masks say only whether a move can be formed: ``propose`` and ``act`` once the
    wish's write call has all its arguments (whether the policy allows it is the agent's
    decision, never the mask's), ``tell`` once there is a figure to tell, a refusal once
    there is a customer to refuse. Each refusal says one reason; which reason (if any)
    applies is the agent's choice too.

    Args:
        writes: The write calls the customer's wishes need (None: arguments unresolved).
        plans: Tool name -> how a proposal names its change (``format_map`` of the call's
            arguments).
        figures: What the looked-up records say that the customer may need to hear
            (refunds, prices, status...).
        can_refuse: When a refusal can be formed (a customer to refuse).
        refusals: Template name -> the reason it states (``refuse``, with no reason, says
            the figures instead; it is always there).
        ready: A further condition for proposing (retail: the customer was found).
    """

    def left(b: B) -> list[CallTool]:
        return [c for c in writes(b) if c is not None and c.name not in b.done]

    def proposing(b: B) -> list[Action]:
        b.quoted = figures(b)
        b.proposed = True
        calls = [c for c in writes(b) if c is not None]
        # Templates build their calls with keyword arguments (never a raw JSON string).
        plan = " and ".join(
            plans[c.name].format_map(c.arguments) for c in calls if isinstance(c.arguments, dict)
        )
        return [SendMessage(content=f"I can {plan} now. Do you confirm?")]

    def told(b: B) -> list[str]:
        return list(dict.fromkeys(b.quoted + figures(b)))

    def refusal(name: str, reason: str) -> Template[B]:
        message = SendMessage(content=f"{_SORRY} {reason}")
        return Template(name, lambda b, c: can_refuse(b), lambda b: [message])

    reasoned = [refusal(name, reason) for name, reason in refusals.items()]
    return (
        Template(
            "propose",
            lambda b, c: ready(b) and bool(left(b)) and not b.confirmed,
            proposing,
        ),
        Template("act", lambda b, c: b.confirmed and bool(left(b)), lambda b: [left(b)[0]]),
        Template(
            "tell",
            lambda b, c: bool(told(b)),
            lambda b: [SendMessage(content="It is done. " + " ".join(told(b)))],
        ),
        Template(
            "refuse",
            lambda b, c: can_refuse(b),
            lambda b: [SendMessage(content=" ".join([_SORRY, *figures(b)]))],
        ),
        *reasoned,
        Template(
            "transfer",
            lambda b, c: True,
            lambda b: [
                CallTool(name=TRANSFER_TOOL, arguments={"summary": "The customer needs a human."}),
                SendMessage(content=TRANSFER_ANNOUNCEMENT),
            ],
        ),
        Template("end", lambda b, c: True, lambda b: [Stop()]),
    )


PROGRESS_NAMES = (
    "changes_resolved",
    "changes_needed",
    "proposed",
    "confirmed",
    "changes_made",
    "all_changes_made",
)
"""The last state features of every desk: how far the wish's changes got."""


def desk_state_names(
    intents: Sequence[str], fact_keys: Sequence[str], domain_names: Sequence[str]
) -> tuple[str, ...]:
    """A desk's state feature names: intents, facts said, the domain's own, then progress."""
    return (
        *(f"intent={intent}" for intent in intents),
        *(f"said:{key}" for key in fact_keys),
        *domain_names,
        *PROGRESS_NAMES,
    )


class DeskFeaturizer(Generic[B]):
    """Belief, move counts and templates of one desk episode (a new one per episode).

    Subclasses set `templates`, `state_names` and `belief_type`, and implement
    `state_features` (the domain's features, before the move counts and the turn).

    Args:
        max_turns: The episode's template budget.
        max_steps: The episode's step budget (both sides' steps, as the env counts them).
    """

    templates: ClassVar[Sequence[Template[Any]]] = ()
    belief_type: ClassVar[type[DeskBelief]] = DeskBelief
    state_names: ClassVar[tuple[str, ...]] = ()

    def __init__(self, max_turns: int, max_steps: int) -> None:
        if max_turns < 1 or max_steps < 1:
            raise ValueError(
                f"max_turns and max_steps must be >= 1, actually: {max_turns}, {max_steps}"
            )
        self.max_turns, self.max_steps = max_turns, max_steps
        self.belief: B = self.new_belief()
        self.counts: dict[str, int] = {}
        self.turn = self.step = 0

    def new_belief(self) -> B:
        """A fresh belief of the domain's `belief_type`."""
        return cast(B, self.belief_type())

    def state_features(self) -> list[float]:
        """The domain's features (`state_names` says what each one is)."""
        raise NotImplementedError

    def said_features(self, intents: Sequence[str], fact_keys: Sequence[str]) -> list[float]:
        """The first state features of every desk: the intents asked, the facts said."""
        b = self.belief
        return [float(i in b.intents) for i in intents] + [float(k in b.facts) for k in fact_keys]

    def progress_features(
        self, calls: Sequence[CallTool | None], *, needed: bool, all_made: bool
    ) -> list[float]:
        """The last state features of every desk (`PROGRESS_NAMES`).

        Whether the calls' arguments resolve is a fact of what was said and looked up;
        whether the policy allows them is the agent's to judge (no feature says it).
        """
        b = self.belief
        resolved = bool(calls) and all(c is not None for c in calls)
        return [resolved, needed, b.proposed, b.confirmed, bool(b.done), all_made]

    @property
    def feature_names(self) -> tuple[str, ...]:
        """What each entry of `features()` means."""
        moves = tuple(f"taken:{t.name}" for t in self.templates)
        return (*self.state_names, *moves, "turn", "tool_error", "customer_asked")

    @property
    def template_names(self) -> tuple[str, ...]:
        """The templates' names, by action index."""
        return tuple(t.name for t in self.templates)

    def observe(self, observation: Mapping[str, Any]) -> None:
        """Read one observation: the customer's messages and the agent's tool results."""
        self.step = int(observation.get("step", self.step))
        for message in observation.get("messages", ()):
            role, content = int(message["role"]), str(message.get("content") or "")
            if role == _USER:
                self.belief.read_user_text(content)
            elif role == _TOOL:
                tool = str(message.get("tool_name") or "")
                error = bool(message.get("error"))
                self.belief.tool_errors += error
                self.belief.read_tool_result(tool, content, error)

    def action_masks(self) -> NDArray[np.bool_]:
        """Which templates apply now."""
        b, counts = self.belief, self.counts
        return np.fromiter(
            (t.applies(b, counts) for t in self.templates), dtype=bool, count=len(self.templates)
        )

    def actions(self, index: int) -> list[Action]:
        """The actions of template ``index`` (counted as taken)."""
        self.skip(index)
        return self.templates[index].build(self.belief)

    def skip(self, index: int) -> None:
        """Count a turn spent on a template."""
        name = self.templates[index].name
        self.counts[name] = self.counts.get(name, 0) + 1
        self.turn += 1

    def features(self) -> NDArray[np.float32]:
        """The belief as a vector in [0, 1] (see `feature_names`)."""
        b = self.belief
        values = self.state_features()
        values += [min(self.counts.get(t.name, 0), 3) / 3 for t in self.templates]
        used = max(self.turn / self.max_turns, self.step / self.max_steps)
        values += [min(used, 1.0), float(b.tool_errors > 0), float(b.asked)]
        return np.asarray(values, dtype=np.float32)
