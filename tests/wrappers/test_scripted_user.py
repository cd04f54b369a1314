import pytest

import tau_env
from tau_env.actions import CallTool, SendMessage
from tau_env.baselines.oracle import OracleAgent, PlainTextOracleAgent
from tau_env.episode_runner import run_episode
from tau_env.messages import UserRequest
from tau_env.tasks.model import GoalCheck, UserScript
from tau_env.wrappers.users import GoldUser, ScriptedUser, resolve_script
from tau_env.wrappers.users.matcher import did_not_follow
from tau_env.wrappers.users.register import REGISTERS
from tests.mock_messages import dismiss_request
from tests.wrappers.conftest import saying

# The mock tasks have no persona: the user talks in the everyday register, whose phrasings the
# seed picks among (exact wordings are the register's; the kind of reply is what is checked).
SAID = REGISTERS["everyday"]

# The official mock data has two fixture tasks whose env assertions need actions absent from
# their gold plan (the reference scores them 0 on a gold replay too: MANIFEST.md).
OFFICIAL_UNSOLVABLE = {"update_task_with_history_and_env_assertions", "update_task_with_user_tools"}


def play(agent, task_id, *, source=None, user=None, seed=0, style=None):
    env = tau_env.make_env("mock", data_dir=source)
    user = user or ScriptedUser.factory(env.unwrapped.domain, style=style)
    return run_episode(env, agent, user, task_id=task_id, seed=seed)


def user_texts(result):
    return [m.content for m in result.trajectory if m.role == "user" and m.content]


@pytest.mark.parametrize("agent", [OracleAgent, PlainTextOracleAgent])
def test_oracle_with_scripted_user__reaches_one_on_every_task(agent, mock_source):
    env = tau_env.make_env("mock", data_dir=mock_source)
    user = ScriptedUser.factory(env.unwrapped.domain)
    rewards = {
        task.id: run_episode(env, agent, user, task_id=task.id, seed=3).reward
        for task in env.unwrapped.tasks
    }
    expected_failures = OFFICIAL_UNSOLVABLE if mock_source is not None else set()
    assert {t for t, r in rewards.items() if r < 1.0} == expected_failures
    gold = {
        t.id: run_episode(env, OracleAgent, GoldUser, task_id=t.id, seed=3).reward
        for t in env.unwrapped.tasks
    }
    assert rewards == gold  # the scripted user costs the oracle nothing


def test_plain_text_oracle__sends_no_structured_request_and_the_user_still_acts():
    result = play(PlainTextOracleAgent, "complete_and_dismiss")
    assert result.reward == 1.0
    assert all(getattr(m, "request", None) is None for m in result.trajectory)
    user_calls = [
        c for m in result.trajectory if m.role == "user" and m.tool_calls for c in m.tool_calls
    ]
    assert [(c.name, c.arguments) for c in user_calls] == [
        ("dismiss_notification", {"notification_id": "notif_1"})
    ]


NOTIF_1_READ = '"status": "read", "task_id": "task_1"'

BLAND = [
    "I'm sorry, I cannot help with that.",
    "Let me see what I can do.",
    "Could you tell me more about your situation?",
]


@pytest.mark.parametrize("line", BLAND)
def test_agents_that_do_nothing_useful__never_score_except_on_refusal_tasks(line, mock_source):
    env = tau_env.make_env("mock", data_dir=mock_source)
    user = ScriptedUser.factory(env.unwrapped.domain)
    for task in env.unwrapped.tasks:
        result = run_episode(env, saying(line), user, task_id=task.id, seed=0)
        writes = [a for a in task.gold_actions if a.name != "transfer_to_human_agents"]
        if result.reward == 1.0:
            assert not writes, f"{task.id} scored 1.0 with an agent that does nothing"
        assert result.grade.termination.value == "user_stop"  # the user gives up, graded


def test_facts__are_answered_by_key_and_unknown_ones_are_declined():
    structured = SendMessage(
        content="Please give me your details.",
        request=UserRequest(facts=["user_id", "credit_card"]),
    )
    result = play(saying(structured, "Thanks."), "create_task", style="structured")
    answer = user_texts(result)[1]
    assert "user_1" in answer and "don't know my credit card" in answer
    # Without the structured channel (the default) the user reads the words only.
    words_only = play(saying(structured, "Thanks."), "create_task")
    assert user_texts(words_only)[1] in SAID.okay
    text = play(saying("What is your user id and the title you want?", "Thanks."), "create_task")
    assert "user_1" in user_texts(text)[1] and "Renew passport" in user_texts(text)[1]


def test_unknown_questions__are_answered_with_i_dont_know():
    result = play(saying("What is your favourite colour?"), "create_task")
    assert user_texts(result)[1] in SAID.unknown


def test_a_long_message__is_read_up_to_the_read_limit():
    from tau_env.wrappers.users.scripted import READ_LIMIT

    filler = "Thank you for your patience. " * (READ_LIMIT // 29 + 1)
    within = play(saying("What is your favourite colour? " + filler), "create_task")
    assert user_texts(within)[1] in SAID.unknown  # the question was read
    beyond = play(saying(filler + " What is your favourite colour?"), "create_task")
    assert user_texts(beyond)[1] not in SAID.unknown  # past what a customer reads


def test_refusal__ends_the_call_or_asks_for_a_human_when_the_scenario_says_so():
    plain = play(saying("Sorry, I can't do that."), "complete_task")
    assert plain.trajectory[-1].content.endswith("###STOP###")
    assert len(user_texts(plain)) == 2
    transfer = play(saying("Sorry, I can't delete tasks."), "delete_refused")
    assert user_texts(transfer)[1] in SAID.ask_human


def test_transfer_announcement__ends_with_the_transfer_token():
    result = play(saying("I am transferring you to a human agent."), "delete_refused")
    assert result.trajectory[-1].content == "###TRANSFER###"
    assert result.grade.termination.value == "user_stop"


def test_requested_tools__outside_accepted_tools_are_declined(mock_domain):
    task = mock_domain.task("create_task")
    script = resolve_script(task).model_copy(update={"accepted_tools": ["check_notifications"]})
    result = play(
        saying("Please dismiss notification notif_1.", "Ok."),
        "create_task",
        user=lambda t: ScriptedUser(t, script=script),
    )
    assert not any(m.role == "user" and m.tool_calls for m in result.trajectory)
    assert "rather not do that" in user_texts(result)[1]  # in words, not the tool's name


def test_goal_checks__probe_after_the_requested_actions_and_stop_when_they_pass(mock_domain):
    script = UserScript(
        opening="My notification is stuck.",
        goal_checks=[GoalCheck(tool="check_notifications", expect=NOTIF_1_READ)],
    )
    request = dismiss_request("Please dismiss it.")
    result = play(
        saying(request, "Anything else?"),
        "complete_and_dismiss",
        user=lambda t: ScriptedUser(t, script=script, style="structured"),
    )
    user_calls = [
        m.tool_calls[0].name for m in result.trajectory if m.role == "user" and m.tool_calls
    ]
    assert user_calls == ["dismiss_notification", "check_notifications"]
    assert result.trajectory[-1].content.endswith("###STOP###")


def test_goal_checks__that_fail_are_reported_and_the_user_keeps_trying():
    script = UserScript(
        opening="My notification is stuck.",
        goal_checks=[GoalCheck(tool="check_notifications", expect=NOTIF_1_READ)],
    )
    result = play(
        saying("I have fixed it, it is done now."),
        "complete_and_dismiss",
        user=lambda t: ScriptedUser(t, script=script, patience=3),
    )
    reports = [t for t in user_texts(result) if t.startswith("It is still not resolved")]
    # What the check showed, in words: the notification and its state, no tool name.
    assert len(reports) >= 2 and "notif_1" in reports[0] and "status is" in reports[0]
    assert "check_notifications" not in reports[0]
    assert result.trajectory[-1].content.endswith("###STOP###")


def test_patience__ends_a_conversation_that_goes_nowhere():
    result = play(saying("Let me see."), "create_task")
    assert len(user_texts(result)[1:-1]) == 5
    assert all(text in SAID.okay for text in user_texts(result)[1:-1])
    assert result.trajectory[-1].content.endswith("###STOP###")


def test_requests_not_understood__are_said_so_never_acted_on_and_cost_patience():
    env = tau_env.make_env("telecom")
    task = env.unwrapped.tasks[0]
    user = ScriptedUser.factory(env.unwrapped.domain, style="plain")
    result = run_episode(env, saying("Please turn on Bluetooth."), user, task_id=task.id, seed=0)
    replies = user_texts(result)[1:]
    assert not [m for m in result.trajectory if m.role == "user" and m.tool_calls]
    assert all(did_not_follow(text) for text in replies[:-1])  # "not sure what you mean..."
    assert all(text in SAID.not_understood for text in replies[:-1])
    assert len(replies) == 6 and replies[-1].endswith("###STOP###")  # patience 6, then gives up


def test_requests_understood__beside_one_not_understood_are_done_and_the_rest_said():
    env = tau_env.make_env("telecom")
    task = env.unwrapped.tasks[0]
    user = ScriptedUser.factory(env.unwrapped.domain, style="plain")
    line = "Please restart your phone. Then clear the cache of the messaging app."
    result = run_episode(env, saying(line, "Thanks."), user, task_id=task.id, seed=0)
    calls = [c.name for m in result.trajectory if m.role == "user" for c in m.tool_calls or []]
    assert calls[0] == "reboot_device"
    report = next(t for t in user_texts(result)[1:] if "messaging app" in t)
    assert "not sure what you want me to do with the messaging app" in report


def test_scripted_user__is_deterministic():
    first = play(PlainTextOracleAgent, "complete_and_dismiss", seed=1)
    second = play(PlainTextOracleAgent, "complete_and_dismiss", seed=1)
    assert [m.model_dump() for m in first.trajectory] == [m.model_dump() for m in second.trajectory]


def test_offers__are_accepted_or_declined_from_the_script(mock_domain):
    task = mock_domain.task("create_task")
    script = resolve_script(task).model_copy(update={"accepts": ["compliment"]})
    result = play(
        saying("Would you like a compliment?", "Would you like a new plan?", "Bye."),
        "create_task",
        user=lambda t: ScriptedUser(t, script=script),
    )
    yes, no = user_texts(result)[1:3]
    assert yes in SAID.yes and no in SAID.no


def test_bad_patience__is_rejected(mock_domain):
    with pytest.raises(ValueError, match="patience"):
        ScriptedUser(mock_domain.task("create_task"), patience=0)


def test_tool_call_actions__never_reach_the_user_as_text():
    # A message with a tool call keeps the floor with the agent; the user only acts on text.
    result = play(saying(CallTool(name="get_users"), "Let me see."), "create_task")
    assert all("get_users" not in t for t in user_texts(result))


def test_a_fact_question_with_confirm_in_it__is_answered_not_accepted():
    result = play(saying("Can you confirm your user id?", "Thanks."), "create_task")
    lead, _, answer = user_texts(result)[1].rpartition("My user id")
    assert lead.strip() in SAID.fact_leads and answer == " is user_1."
