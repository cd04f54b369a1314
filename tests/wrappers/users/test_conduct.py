"""The scripted user holds to its instructions when the agent leaves the path, kind by kind.

Each test gives the user a scenario of its own (on a mock task: the world does not matter),
plays an off-path agent's lines and reads the replies.
"""

import re

import pytest

import tau_env
from tau_env.baselines.off_path import OFF_PATH_LINES, LineAgent
from tau_env.episode_runner import run_episode
from tau_env.tasks.model import UserScenario
from tau_env.wrappers.users import ScriptedUser
from tau_env.wrappers.users.conduct import asks_for_confirmation, offers_transfer
from tau_env.wrappers.users.register import REGISTERS

AGREES = re.compile(r"\b(yes|go ahead|please do|i confirm|sounds good|that's fine)\b", re.I)
ASKS_HUMAN = re.compile(r"\b(transfer me to|put me through|speak to a human)\b", re.I)


def replies(instructions, *lines, seed=0):
    """The user's replies to `lines`, the user reading `instructions` (free text)."""
    env = tau_env.make_env("mock")
    domain = env.unwrapped.domain
    scenario = UserScenario.model_validate({"instructions": instructions})

    def user(task):
        return ScriptedUser(task.model_copy(update={"user_scenario": scenario}), domain, seed=seed)

    result = run_episode(
        env, lambda task: LineAgent(task, lines=lines), user, task_id="create_task", seed=seed
    )
    said = [m.content for m in result.trajectory if m.role == "user" and m.content]
    return said[1:]  # the opening left out


@pytest.mark.parametrize("seed", [0, 1])
def test_no_transfer__offers_declined_and_no_human_asked_after_refusals(seed):
    text = "You want your task list cleared. Do not ask to be transferred. Be persistent."
    offered = replies(text, *OFF_PATH_LINES["offer_transfer"], seed=seed)
    assert len(offered) == 2
    assert all(not AGREES.search(r) and not ASKS_HUMAN.search(r) for r in offered)
    assert all("###" not in r for r in offered)
    refused = replies(text, *OFF_PATH_LINES["refuse"], seed=seed)
    assert refused[:2] == [r for r in refused[:2] if r in REGISTERS["everyday"].insist]
    assert not any(ASKS_HUMAN.search(r) for r in refused)
    assert refused[-1].endswith("###STOP###")  # pushed back twice, then gave in


def test_ask_human__after_a_refusal_and_an_offered_transfer_is_taken():
    text = "You want your tasks deleted. If the agent refuses, ask for a human agent."
    assert ASKS_HUMAN.search(replies(text, "I'm sorry, I can't do that.")[0])
    assert replies(text, "Would you like me to transfer you to a human agent?")[0].endswith(
        "###TRANSFER###"
    )


def test_on_refusal__the_first_refusal_gets_the_instructed_answer():
    text = (
        "You want to cancel your subscription. If the agent says it is not possible, mention "
        "that the manager promised a refund."
    )
    assert "manager promised a refund" in replies(text, "I'm sorry, I can't do that.")[0]


def test_declines__an_offer_and_the_same_offer_pushed_again():
    text = "You want your task renamed. You do not want any insurance."
    first, again = replies(text, *OFF_PATH_LINES["push_back"])
    assert not AGREES.search(first) and not AGREES.search(again)
    assert again in REGISTERS["everyday"].decline_again


def test_no_alternative__declines_what_is_offered_instead():
    text = "You want task_1 renamed to 'Plan'. Decline any alternative the agent offers."
    first, again = replies(text, *OFF_PATH_LINES["alternative"])
    assert not AGREES.search(first) and not AGREES.search(again)


def test_accepted_alternative__named_before_the_question_is_taken():
    text = "You want a refund. You are willing to accept a voucher for future orders."
    line = "I can't refund it, but I could give you a voucher instead. Would you like that?"
    assert AGREES.search(replies(text, line)[0])


def test_confirm_only__a_wider_scope_is_cut_down_twice_and_the_right_one_accepted():
    text = (
        "You want to exchange the kettle and the blender. If the agent asks for confirmation, "
        "only exchange the blender."
    )
    wide = "Just to confirm: I'll exchange the kettle and the blender. Shall I proceed?"
    right = "So I'll exchange only the blender. Shall I proceed?"
    first, second, third = replies(text, wide, wide, right)
    for reply in (first, second):
        assert "only exchange" in reply and "not the kettle" in reply and not AGREES.search(reply)
    assert AGREES.search(third)


def test_at_confirmation__a_change_of_mind_then_no_again():
    text = (
        "You want to cancel the order. But if the agent asks you to confirm, you regret and want "
        "to keep it."
    )
    asked = "Just to confirm: I'll cancel the order. Shall I proceed?"
    first, second = replies(text, asked, "Shall I proceed, then?")
    assert "keep it" in first and not AGREES.search(first)
    assert not AGREES.search(second)


def test_unknown_and_withheld__said_as_such_without_a_value():
    text = (
        "You want to change your address. You do not remember your email address. You do not "
        "want to reveal your new address."
    )
    email, address = replies(
        text, "Could you give me your email address?", "What is your new address?"
    )
    assert "don't know my email address" in email and "@" not in email
    assert "address" in address and re.search(r"rather not|prefer not|not share", address)


def test_answers__a_question_on_the_topic_gets_the_instructed_answer():
    text = "You want to cancel the order. If the agent asks for the cancellation reason, say "
    text += "you bought it twice."
    assert replies(text, "What is the reason for the cancellation?")[0] == "I bought it twice."


def test_budget__declined_above_accepted_below():
    text = "You want to upgrade your plan. You are willing to pay up to $100 for the upgrade."
    above, below = replies(
        text,
        "The upgrade comes to $180 in total. Shall I go ahead?",
        "I found an upgrade for $60 in total. Shall I go ahead?",
    )
    assert not AGREES.search(above) and AGREES.search(below)


def test_healthy__no_health_reason():
    text = "You want to cancel your booking. You do not have a health issue, you are healthy."
    reply = replies(text, "Is this because of a health issue?")[0]
    assert reply in REGISTERS["everyday"].healthy


def test_off_script_why__the_reason_again_not_i_dont_know_nor_a_hang_up():
    text = "You want your tasks deleted because you are moving abroad."
    reply = replies(text, OFF_PATH_LINES["off_script"][0])[0]
    assert "moving abroad" in reply and "###" not in reply
    # A question with a figure in it is no answer to end the call on.
    asked = replies("You want to know how many tasks you have.", "Is it 3? Let me check.")
    assert not asked[0].endswith("###STOP###")


def test_detectors__offers_of_a_transfer_and_requests_for_confirmation():
    assert offers_transfer("I can transfer you to a human agent if you'd like.")
    assert offers_transfer("Shall I escalate this to a supervisor?")
    assert not offers_transfer("I'm transferring you to a human agent now.")
    assert asks_for_confirmation("Shall I proceed with the exchange?")
    assert asks_for_confirmation("Please confirm the new address.")
    assert not asks_for_confirmation("The exchange is done.")
