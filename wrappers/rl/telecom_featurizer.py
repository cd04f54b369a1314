"""The telecom featurizer: the agent's belief as a fixed vector, its moves as templates.

`TelecomFeaturizer` keeps a `TelecomBelief` and a `Progress` for one episode, reads every
observation the agent receives into them, and offers:

- `features()`: a float32 vector in [0, 1] (`feature_names` says what each entry is): the
  intent; what the customer said (phone number given, location given, abroad); the account as
  the agent's tools showed it (customer found, own line found, lines left to inspect, line
  suspended, roaming on the line, contract ended, bills listed, overdue bill, payment requested
  and made, data usage known, out of data, the data refuelled this cycle as a share of
  the policy's 2 GB); every device fact as a
  one-hot over its values (all zeros while unknown); which checks are current; how often each
  template was taken; the turn; whether a tool call failed; whether anything changed since the
  last restart of the phone.
- `action_masks()`: which templates apply now (see `telecom_templates`).
- `actions(index)`: the actions that make template ``index``, arguments filled in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from tau_env.actions import Action
from tau_env.env.spaces import ROLE_INDEX
from tau_env.wrappers.rl.telecom_belief import DEVICE_FACTS, INTENTS, TelecomBelief
from tau_env.wrappers.rl.telecom_templates import MAX_REFUEL_GB, TEMPLATES, Progress, Template

__all__ = ["TelecomFeaturizer"]

_USER = ROLE_INDEX["user"]
_TOOL = ROLE_INDEX["tool"]
_COUNT_CAP = 3
_CHECKS = tuple(t.name for t in TEMPLATES if t.kind == "check")
_ACCOUNT_FEATURES = (
    "phone_number_known",
    "name_and_birth_date_known",
    "location_known",
    "abroad",
    "customer_found",
    "line_found",
    "lines_left_to_inspect",
    "line_suspended",
    "line_active",
    "line_roaming_on",
    "line_roaming_off",
    "contract_ended",
    "contract_running",
    "bills_listed",
    "overdue_bill",
    "payment_requested",
    "payment_made",
    "data_usage_known",
    "out_of_data",
    "data_refueled",
)


def _feature_names() -> tuple[str, ...]:
    names = [f"intent={intent}" for intent in INTENTS]
    names += _ACCOUNT_FEATURES
    names += [f"{fact}={value}" for fact, values in DEVICE_FACTS.items() for value in values]
    names += [f"current:{check}" for check in _CHECKS]
    names += [f"taken:{template.name}" for template in TEMPLATES]
    names += ["turn", "tool_error", "changed_since_reboot", "says_unresolved", "did_not_follow"]
    return tuple(names)


_NAMES = _feature_names()
_INDEX = {name: index for index, name in enumerate(_NAMES)}
_ACCOUNT_START = _INDEX[_ACCOUNT_FEATURES[0]]
# Feature positions by what sets them, looked up once (the vector is rebuilt every turn).
_INTENT_AT = {intent: _INDEX[f"intent={intent}"] for intent in INTENTS}
_FACT_AT = {
    (fact, value): _INDEX[f"{fact}={value}"]
    for fact, values in DEVICE_FACTS.items()
    for value in values
}
_CURRENT_AT = {check: _INDEX[f"current:{check}"] for check in _CHECKS}
_TAKEN_AT = {template.name: _INDEX[f"taken:{template.name}"] for template in TEMPLATES}
_APPLIES = tuple(template.applies for template in TEMPLATES)


class TelecomFeaturizer:
    """Belief, progress and templates of one telecom episode (a new one per episode).

    Args:
        max_turns: The episode's template budget.
        max_steps: The episode's step budget (steps of both sides, as the env counts them).
            The ``turn`` feature is the larger share of either budget used so far.
    """

    _FEATURE_NAMES: tuple[str, ...] = _NAMES

    templates: tuple[Template, ...] = TEMPLATES
    """The moves, in the order of the action index."""

    def __init__(self, max_turns: int, max_steps: int) -> None:
        if max_turns < 1 or max_steps < 1:
            raise ValueError(
                f"max_turns and max_steps must be >= 1, actually: {max_turns}, {max_steps}"
            )
        self.max_turns = max_turns
        self.max_steps = max_steps
        self.step = 0
        self.belief = TelecomBelief()
        self.progress = Progress()
        self.turn = 0
        self.awaiting: Template | None = None
        self.forgotten: dict[str, str] = {}
        self._mask: NDArray[np.bool_] | None = None

    @property
    def feature_names(self) -> tuple[str, ...]:
        """What each entry of `features()` means."""
        return self._FEATURE_NAMES

    @property
    def template_names(self) -> tuple[str, ...]:
        """The templates' names, by action index."""
        return tuple(template.name for template in self.templates)

    # -- reading -------------------------------------------------------------------------------
    def observe(self, observation: Mapping[str, Any]) -> None:
        """Read one observation of the agent (the messages that reached it, its instructions)."""
        if self.belief.today is None and self.turn == 0:
            self.belief.read_instructions(str(observation.get("instructions", "")))
        self.step = int(observation.get("step", self.step))
        self.read_messages(observation.get("messages", ()))

    def read_messages(self, messages: Sequence[Mapping[str, Any]]) -> None:
        """Read the customer's messages and the agent's tool results, oldest first."""
        for message in messages:
            role, content = int(message["role"]), str(message.get("content") or "")
            if role == _USER:
                self.belief.read_user_text(content)
                self._settle()
            elif role == _TOOL:
                tool = str(message.get("tool_name") or "")
                self.belief.read_tool_result(tool, content, bool(message.get("error")))
        self._mask = None

    def _settle(self) -> None:
        """Judge the reply to the last request.

        A move the customer did not make, or a check whose answer it left out, may be asked
        again.
        """
        template, self.awaiting = self.awaiting, None
        if template is None:
            return
        unanswered = template.kind == "check" and not set(template.reads) <= self.belief.read_device
        if self.belief.not_followed or unanswered:
            self.progress.undo()
        if self.belief.not_followed:  # nothing changed on the phone: what was known still holds
            for fact, value in self.forgotten.items():
                self.belief.device.setdefault(fact, value)
        self.forgotten = {}

    # -- acting --------------------------------------------------------------------------------
    def action_masks(self) -> NDArray[np.bool_]:
        """Which templates apply now (computed once per change)."""
        if self._mask is None:
            belief, progress = self.belief, self.progress
            self._mask = np.array([applies(belief, progress) for applies in _APPLIES], dtype=bool)
        return self._mask

    def actions(self, index: int) -> list[Action]:
        """The actions of template ``index`` (recorded as taken).

        A change on the phone makes the facts it touches unknown until the customer says what
        the phone shows now.
        """
        template = self.templates[index]
        self.progress.record(template)
        device = self.belief.device
        self.forgotten = {fact: device[fact] for fact in template.forgets if fact in device}
        for fact in template.forgets:
            self.belief.set_fact(fact, None)
        self.awaiting = template if template.kind in ("ask", "check", "fix") else None
        self.turn += 1
        self._mask = None
        return template.build(self.belief)

    def skip(self, index: int) -> None:
        """Count a turn spent on a template that did not apply (nothing is sent)."""
        self.progress.counts[self.templates[index].name] = (
            self.progress.counts.get(self.templates[index].name, 0) + 1
        )
        self.turn += 1
        self._mask = None

    # -- the vector ----------------------------------------------------------------------------
    def features(self) -> NDArray[np.float32]:
        """The belief as a vector in [0, 1] (see `feature_names`).

        Built as a Python list and converted once: cheaper than writing numpy entries one by
        one, and the vector is rebuilt every turn.
        """
        b, progress = self.belief, self.progress
        out = b.out_of_data
        values: list[float] = [0.0] * len(self._FEATURE_NAMES)
        if b.intent is not None:
            values[_INTENT_AT[b.intent]] = 1.0
        values[_ACCOUNT_START : _ACCOUNT_START + len(_ACCOUNT_FEATURES)] = (
            b.phone_number is not None,
            b.full_name is not None and b.birth_date is not None,
            b.abroad is not None,
            b.abroad is True,
            b.customer_id is not None,
            b.line_id is not None,
            bool(b.candidate_lines),
            b.line_suspended is True,
            b.line_suspended is False,
            b.line_roaming is True,
            b.line_roaming is False,
            b.contract_ended is True,
            b.contract_ended is False,
            b.bills_seen,
            b.overdue_bill_id is not None,
            b.payment_requested,
            b.payment_made,
            out is not None,
            out is True,
            min((b.data_refueled or 0.0) / MAX_REFUEL_GB, 1.0),
        )
        for item in b.device.items():
            values[_FACT_AT[item]] = 1.0
        for check in progress.fresh:
            values[_CURRENT_AT[check]] = 1.0
        for name, count in progress.counts.items():
            values[_TAKEN_AT[name]] = min(count, _COUNT_CAP) / _COUNT_CAP
        used = max(self.turn / self.max_turns, self.step / self.max_steps)
        values[-5:] = (
            min(used, 1.0),
            b.tool_errors > 0,
            progress.changed_since_reboot,
            b.unresolved,
            b.not_followed,
        )
        return np.array(values, dtype=np.float32)
