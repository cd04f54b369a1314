"""User-simulation guidelines: how an LLM should play the customer.

For official data the reference's own guidelines files are used (read from
``<data_dir>/user_simulator/`` by the domain loader), so scores stay comparable with published
ones. For built-in data the guidelines below, written for tau_env, are used. Either way the
variant for users with tools is chosen when the user has tools.
"""

from __future__ import annotations

from dataclasses import dataclass

from tau_env.domain import Domain

__all__ = ["BUILTIN_GUIDELINES", "UserGuidelines", "guidelines_for"]

_PLAIN = """\
# How to play the customer

You are a customer talking to a support agent. The situation you are in is described in the
<scenario> below; act it out faithfully.

- Write one short message per turn, the way a real customer would write in a chat.
- Only use information the scenario gives you. If the agent asks for something the scenario
  does not contain, say you do not know it; never make details up.
- Do not recite the scenario. Say things in your own words and give details only when the
  agent asks for them.
- Follow the task instructions of the scenario, including how to react to offers.

Ending the conversation: when your goal is met, or there is nothing left to do, reply with
the single token ###STOP###. If the agent transfers you to a human agent, reply with
###TRANSFER###. If the scenario does not tell you what you need to continue, reply with
###OUT-OF-SCOPE###.
"""

_TOOLS = """\
# How to play the customer, with your own device

You are a customer talking to a support agent. The situation you are in is described in the
<scenario> below; act it out faithfully. You also have tools that act on your own device; the
agent cannot see them or their results, only what you tell it.

- Each turn is either one message to the agent or tool calls, never both.
- Use a tool only when the agent asks you to do or check something on your device, one
  action at a time, and then tell the agent what happened.
- Base everything you say about your device on what your tools returned. Never guess or
  invent a result; if a call fails because of your own mistake, fix the call and try again.
- Only use information the scenario gives you. If the agent asks for something the scenario
  does not contain, say you do not know it; never make details up.
- Do not recite the scenario. Say things in your own words and give details only when the
  agent asks for them.
- Follow the task instructions of the scenario, including how to react to offers.

Ending the conversation: when your goal is met, reply with the single token ###STOP###. Reply
###TRANSFER### only once the agent has clearly told you that you are being transferred to a
human agent. If the scenario does not tell you what you need to continue, reply with
###OUT-OF-SCOPE###.
"""


@dataclass(frozen=True)
class UserGuidelines:
    """The two variants of the guidelines and where they come from.

    Attributes:
        plain: For users without tools.
        with_tools: For users with tools on their own device.
        source: ``"tau_env"`` or the data folder the files were read from.
    """

    plain: str
    with_tools: str
    source: str

    def text(self, has_tools: bool) -> str:
        """The variant for a user with or without tools."""
        return self.with_tools if has_tools else self.plain


BUILTIN_GUIDELINES = UserGuidelines(plain=_PLAIN, with_tools=_TOOLS, source="tau_env")
"""The guidelines written for tau_env, used with built-in data."""


def guidelines_for(domain: Domain | None) -> UserGuidelines:
    """The official guidelines when the domain's data folder has them, else tau_env's."""
    found = domain.data.guidelines if domain is not None else {}
    plain = found.get("simulation_guidelines")
    if plain is None or domain is None:
        return BUILTIN_GUIDELINES
    return UserGuidelines(
        plain=plain,
        with_tools=found.get("simulation_guidelines_tools", plain),
        source=domain.data.source,
    )
