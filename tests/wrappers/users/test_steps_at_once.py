"""How many phone steps the scripted user follows from one message (`MAX_STEPS`)."""

from __future__ import annotations

from tau_env.wrappers.users.comprehension import Wording, play_wording
from tau_env.wrappers.users.register import REGISTERS
from tau_env.wrappers.users.scripted import MAX_STEPS

STEPS = [
    "Please turn off airplane mode.",
    "Please turn on mobile data.",
    "Please turn on data roaming.",
    "Please turn off Data Saver.",
    "Please reset your APN settings.",
    "Please restart your phone.",
    "Please reseat your SIM card.",
    "Please disconnect your VPN.",
    "Please turn on Wi-Fi calling.",
    "Please run a speed test.",
    "Please check your status bar.",
    "Please check your network mode.",
]


def _said(count: int, seed: int = 0):
    return play_wording(Wording("telecom", "request", " ".join(STEPS[:count])), {}, seed=seed)


def test_steps_up_to_the_limit__are_all_done():
    assert len(STEPS) > MAX_STEPS
    assert len(_said(MAX_STEPS).calls) == MAX_STEPS


def test_more_steps_than_the_limit__none_is_done_and_the_user_asks_for_one_at_a_time():
    phrases = {p for register in REGISTERS.values() for p in register.too_many}
    for seed in range(4):
        outcome = _said(MAX_STEPS + 1, seed)
        assert outcome.calls == ()
        assert outcome.reply in phrases
