"""User-fault flags: empty turns, an early stop, instructions read out."""

from __future__ import annotations

import tau_env
from tau_env.messages import (
    AssistantMessage,
    RequestedToolCall,
    ToolCall,
    ToolMessage,
    UserMessage,
    UserRequest,
)
from tau_env.tasks import Task
from tau_env.user_faults import user_faults

GREETING = AssistantMessage(content="Hi! How can I help you today?")
INSTRUCTIONS = (
    'You want to cancel the order #W123 because "the color is wrong" and you will not accept '
    "a gift card refund under any circumstances, even if the agent insists politely."
)


def _task() -> Task:
    return Task.model_validate({"id": "t", "user_scenario": {"instructions": INSTRUCTIONS}})


def test_empty_turns__counts_retried_replies_and_empty_messages():
    trajectory = [GREETING, UserMessage(content="  "), AssistantMessage(content="Hello?")]
    assert user_faults(_task(), trajectory, "max_steps", empty_replies=2).empty_turns == 3
    assert not user_faults(_task(), trajectory[:1], "max_steps").any


def test_early_stop__before_the_agent_acts_or_with_a_requested_action_undone():
    quit_at_once = [GREETING, UserMessage(content="Bye ###STOP###")]
    assert user_faults(_task(), quit_at_once, "user_stop").early_stop
    asked = AssistantMessage(content="Please run toggle_airplane_mode and tell me.")
    undone = [GREETING, UserMessage(content="Help"), asked, UserMessage(content="###STOP###")]
    assert user_faults(_task(), undone, "user_stop", user_tools=["toggle_airplane_mode"]).early_stop
    request = AssistantMessage(
        content="Please do this.",
        request=UserRequest(tool_calls=[RequestedToolCall(name="reboot", arguments={})]),
    )
    structured = [GREETING, UserMessage(content="Help"), request, UserMessage(content="###STOP###")]
    assert user_faults(_task(), structured, "user_stop").early_stop


def test_early_stop__not_after_acting_not_on_transfer_not_after_an_answer():
    asked = AssistantMessage(content="Please run toggle_airplane_mode.")
    acted = UserMessage(tool_calls=[ToolCall(id="1", name="toggle_airplane_mode", arguments={})])
    done = [GREETING, UserMessage(content="Help"), asked, acted, UserMessage(content="###STOP###")]
    tools = ["toggle_airplane_mode"]
    assert not user_faults(_task(), done, "user_stop", user_tools=tools).early_stop
    transfer = [GREETING, UserMessage(content="Help"), asked, UserMessage(content="###TRANSFER###")]
    assert not user_faults(_task(), transfer, "user_stop", user_tools=tools).early_stop
    answered = AssistantMessage(content="Your order is cancelled. Anything else?")
    thanks = [GREETING, UserMessage(content="Help"), answered, UserMessage(content="###STOP###")]
    assert not user_faults(_task(), thanks, "user_stop", user_tools=tools).early_stop


def test_instruction_leak__eight_words_of_the_brief_numbers_and_quotes_aside():
    def said(text):
        return user_faults(_task(), [GREETING, UserMessage(content=text)], "max_steps")

    assert said("I will not accept a gift card refund under any circumstances.").instruction_leak
    assert not said("No gift card refund for me, under any circumstances.").instruction_leak
    # Numbers and quoted facts are the customer's to say: "#W123", "the color is wrong".
    assert not said("Cancel order #W123 because the color is wrong, please.").instruction_leak


# The examples (issue 54): a literal read from the instructions, a tool quoted.
LITERAL_BRIEF = (
    "For #W7209932, exchange T-Shirt {'color': 'blue', 'size': 'S', 'material': 'polyester', "
    "'style': 'v-neck'} to {'color': 'red', 'size': 'XXL', 'material': 'cotton', 'style': "
    "'crew neck'}; Use the gift card."
)
STATUS = "Status Bar: 📵 No Signal | 📵 Data Disabled | 🔋 72%"


def _said(text, instructions=INSTRUCTIONS, *, before=(), tools=()):
    task = Task.model_validate({"id": "t", "user_scenario": {"instructions": instructions}})
    trajectory = [GREETING, *before, UserMessage(content=text)]
    return user_faults(task, trajectory, "max_steps", user_tools=tools)


def test_instruction_leak__a_literal_read_out_counts_though_quotes_hide_it_from_the_mask():
    from tau_env.wrappers.users.parroting import ScenarioWords

    aloud = "Hi. " + LITERAL_BRIEF.replace("exchange", "I want to exchange")
    assert not ScenarioWords.of(LITERAL_BRIEF).masked_copies(aloud)  # the masked check misses it
    assert _said(aloud, LITERAL_BRIEF).instruction_leak
    spoken = (
        "For #W7209932 I'd like to swap my blue polyester v-neck T-Shirt in size S for a red "
        "cotton crew neck one in size XXL, and I'll pay with my gift card."
    )
    assert not _said(spoken, LITERAL_BRIEF).any


def test_program_speech__tool_names_literals_calls_and_raw_output():
    result = ToolMessage(id="1", name="check_status_bar", content=STATUS, requestor="user")
    ran = UserMessage(tool_calls=[ToolCall(id="1", name="check_status_bar", arguments={})])
    quoted = f"I did that. check_status_bar shows: {STATUS}."
    assert _said(quoted, before=[ran, result], tools=["check_status_bar"]).program_speech
    raw = f"It is still not resolved: {STATUS}."  # the output alone, no tool name
    assert _said(raw, before=[ran, result]).program_speech
    for text in (
        "exchange T-Shirt {'color': 'blue', 'size': 'S'}",
        "I ran toggle_airplane_mode() as you asked.",
        "I set mode=4g_only.",
        "It says: None",
    ):
        assert _said(text).program_speech, text


def test_program_speech__is_quiet_on_ordinary_customer_speech():
    result = ToolMessage(id="1", name="check_status_bar", content=STATUS, requestor="user")
    for text in (
        "My phone shows no signal and says mobile data is off.",
        "I'd like the blue T-shirt in size S, please. True, I did order two.",
        "My user id is mei_brown_7075 and my email is mei_brown@example.com.",
        "The referral link is https://rhobank.com/refer?code=fbe29c7125914ed1.",
        "Status: it's still not working.",
    ):
        assert not _said(text, before=[result], tools=["check_status_bar"]).any, text


def test_chat_info__carries_the_flags_at_the_end():
    from tau_env.chat import make_chat_env
    from tests.rollout.agents import QuittingUser

    chat = make_chat_env("mock", user=QuittingUser)
    turn = chat.reset(task_id="create_task", seed=0)
    assert turn.done and turn.info["user_faults"] == {
        "empty_turns": 0,
        "early_stop": True,
        "instruction_leak": False,
        "program_speech": False,
    }
    assert "user_faults" not in chat.reset(task_id="complete_task", seed=0).info


def test_run_and_report__count_and_can_leave_out_user_faults(tmp_path, capsys):
    from tau_env.cli.main import main

    store = str(tmp_path / "runs.sqlite")
    arguments = ["run", "--domain", "mock", "--tasks", "create_task,complete_task", "--trials"]
    arguments += ["2", "--user", "tests.rollout.agents:QuittingUser", "--store", store]
    assert main([*arguments, "--run", "q", "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "user faults: 2 of 4 episodes (2 early stops)" in printed
    assert main(["report", "--store", store, "--json"]) == 0
    report = __import__("json").loads(capsys.readouterr().out)[0]
    assert report["user_faults"] == {
        "episodes": 2,
        "empty_turns": 0,
        "early_stop": 2,
        "instruction_leak": 0,
        "program_speech": 0,
    }
    assert report["pass_hat_k"]["2"] == 0.5  # the quitter's task fails
    assert main(["report", "--store", store, "--json", "--without-user-faults"]) == 0
    kept = __import__("json").loads(capsys.readouterr().out)[0]
    assert kept["pass_hat_k"] == {"1": 1.0, "2": 1.0}  # complete_task alone
    with tau_env.store.ResultStore(store) as results:
        flags = {(r.task_id, r.trial): r.user_faults.early_stop for r in results.episodes("q")}
    assert flags == {("create_task", 0): True, ("create_task", 1): True} | {
        ("complete_task", 0): False,
        ("complete_task", 1): False,
    }


def test_llm_user__an_empty_reply_is_retried_and_flagged(monkeypatch):
    from tau_env.chat import make_chat_env
    from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply

    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake")
    replies = [FakeReply.empty(), FakeReply.text("Please mark task_1 as completed.")]
    with FakeOpenAIServer(replies) as server:
        chat = make_chat_env(
            "mock", user="llm", user_model=server.model(), user_api_base=server.base_url
        )
        turn = chat.reset(task_id="complete_task", seed=3)
        assert turn.messages[-1]["content"] == "Please mark task_1 as completed."
        seeds = [request.body["seed"] for request in server.requests]
    end = chat.step({"role": "assistant", "content": "###STOP###"})
    assert seeds == [3, 4]  # asked again with the next seed (no cached empty reply)
    assert end.done and end.info["user_faults"]["empty_turns"] == 1


def test_llm_user__a_stop_sent_with_a_tool_call_is_the_call_alone(monkeypatch):
    """The reference's protocol: a message with tool calls is not a stop; its text reaches no
    one. A user who hangs up while doing what the agent asked is held to the action."""
    from tau_env.chat import make_chat_env
    from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply, FakeToolCall

    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake")
    hang_up = FakeReply(
        content="Done, bye! ###STOP###",
        tool_calls=(FakeToolCall("dismiss_notification", '{"notification_id": "notif_1"}'),),
    )
    replies = [FakeReply.text("Please dismiss my notification."), hang_up, FakeReply.text("Ok.")]
    with FakeOpenAIServer(replies) as server:
        chat = make_chat_env(
            "mock", user="llm", user_model=server.model(), user_api_base=server.base_url
        )
        chat.reset(task_id="complete_and_dismiss", seed=0)
        turn = chat.step({"role": "assistant", "content": "Please dismiss notif_1."})
    assert not turn.done and turn.messages[-1]["content"] == "Ok."
    trajectory = chat.single.driven.unwrapped.conversation.trajectory
    assert [c.name for m in trajectory if m.role == "user" for c in m.tool_calls or ()] == [
        "dismiss_notification"
    ]
