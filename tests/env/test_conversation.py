"""The turn protocol: greeting, floor rules, visibility, stops, error and step limits."""

import pytest

import tau_env
from tau_env import CallTool, SendMessage, Stop
from tau_env.env.conversation import GREETING
from tau_env.errors import InvalidAction
from tests.mock_messages import COMPLETE_TASK_1, dismiss_request


def play(env, *actions):
    for action in actions:
        env.step(action)


def test_reset__the_greeting_opens_and_the_user_has_the_floor(raw_mock_env):
    raw_mock_env.reset(seed=0)
    assert raw_mock_env.agent_selection == "user"
    observation = raw_mock_env.observe("user")
    assert [m["content"] for m in observation["messages"]] == [GREETING]
    assert observation["instructions"].startswith("Instructions:")
    assert raw_mock_env.observe("agent")["messages"] == ()
    assert "To-do service" in raw_mock_env.observe("agent")["instructions"]


def test_reset__every_episode_opens_with_a_greeting_record_equal_to_a_validated_one(
    raw_mock_env,
):
    from tau_env.messages import AssistantMessage

    raw_mock_env.reset(seed=0, options={"task_id": "create_task"})
    first = raw_mock_env.conversation.trajectory[0]
    raw_mock_env.reset(seed=1, options={"task_id": "complete_task"})
    again = raw_mock_env.conversation.trajectory[0]
    assert again == first
    built = AssistantMessage(content=GREETING)
    assert first == built and first.model_dump() == built.model_dump()
    assert first.model_fields_set == built.model_fields_set
    assert raw_mock_env.view("user").history == [first]
    entry = raw_mock_env.observe("user")["messages"][0]
    raw_mock_env.reset(seed=2)
    assert raw_mock_env.observe("user")["messages"][0] is not entry  # entries stay per episode


def test_tool_call__keeps_the_floor_and_only_the_caller_sees_the_result(raw_mock_env):
    raw_mock_env.reset(seed=0, options={"task_id": "complete_task"})
    play(raw_mock_env, SendMessage(content="Please close task_1."))
    assert raw_mock_env.agent_selection == "agent"
    play(raw_mock_env, CallTool(name="get_users", arguments={}))
    assert raw_mock_env.agent_selection == "agent"
    agent_new = raw_mock_env.observe("agent")["messages"]
    assert len(agent_new) == 1 and agent_new[0]["tool_name"] == "get_users"
    assert "Ada Lovelace" in agent_new[0]["content"]
    user_view = raw_mock_env.view("user")
    assert all(m.role != "tool" and not getattr(m, "tool_calls", None) for m in user_view.history)


def test_message__passes_the_floor_and_the_user_never_sees_agent_tool_traffic(raw_mock_env):
    raw_mock_env.reset(seed=0, options={"task_id": "complete_and_dismiss"})
    play(
        raw_mock_env,
        SendMessage(content="Close task_1 please."),
        COMPLETE_TASK_1,
        dismiss_request("Done. Please dismiss notif_1."),
    )
    assert raw_mock_env.agent_selection == "user"
    user_new = raw_mock_env.view("user").inbox
    assert [m.content for m in user_new] == ["Done. Please dismiss notif_1."]
    assert user_new[0].request.tool_calls[0].name == "dismiss_notification"
    play(
        raw_mock_env,
        CallTool(name="dismiss_notification", arguments={"notification_id": "notif_1"}),
    )
    assert raw_mock_env.agent_selection == "user"
    agent_history = raw_mock_env.view("agent").history
    assert not any(m.role == "tool" and m.requestor == "user" for m in agent_history)
    assert not any(getattr(m, "tool_calls", None) and m.role == "user" for m in agent_history)
    assert raw_mock_env.observe("user")["messages"][0]["tool_name"] == "dismiss_notification"


def test_history__each_side_gets_the_part_it_could_have_seen(raw_mock_env):
    raw_mock_env.reset(seed=0, options={"task_id": "complete_after_history"})
    assert raw_mock_env.agent_selection == "user"  # the history ends with agent text
    user_history = raw_mock_env.view("user").history
    assert [m.role for m in user_history] == ["assistant", "user", "assistant"]
    agent_history = raw_mock_env.view("agent").history
    assert [m.role for m in agent_history] == [
        "assistant",
        "user",
        "assistant",
        "tool",
        "assistant",
    ]
    assert [m.content for m in raw_mock_env.view("user").inbox] == [
        "Done: 'Call the bank' is task_4 and is pending."
    ]


@pytest.mark.parametrize(
    ("token", "reason"),
    [
        ("###STOP###", "user_stop"),
        ("###TRANSFER###", "user_stop"),
        ("###OUT-OF-SCOPE###", "user_stop"),
    ],
)
def test_stop_tokens_in_user_text_end_the_episode(raw_mock_env, token, reason):
    raw_mock_env.reset(seed=0)
    play(raw_mock_env, SendMessage(content=f"Thanks! {token}"))
    assert all(raw_mock_env.terminations.values())
    assert raw_mock_env.infos["agent"]["termination"] == reason


def test_stop_action__ends_with_that_sides_stop_and_the_reward_goes_to_both(raw_mock_env):
    raw_mock_env.reset(seed=0, options={"task_id": "complete_task"})
    play(
        raw_mock_env,
        SendMessage(content="close task_1"),
        COMPLETE_TASK_1,
        Stop(),
    )
    assert raw_mock_env.infos["user"]["termination"] == "agent_stop"
    assert raw_mock_env._cumulative_rewards == {"agent": 1.0, "user": 1.0}
    assert raw_mock_env.conversation.trajectory[-1].content == "###STOP###"


@pytest.mark.parametrize("side", ["agent", "user"])
def test_stop_action__records_a_stop_message_per_side_and_reason(raw_mock_env, side):
    from tau_env.messages import AssistantMessage, UserMessage

    records = []
    for seed in (0, 1):
        raw_mock_env.reset(seed=seed, options={"task_id": "complete_task"})
        if side == "agent":
            play(raw_mock_env, SendMessage(content="hello"))
        play(raw_mock_env, Stop(reason="transfer"))
        records.append(raw_mock_env.conversation.trajectory[-1])
    model = AssistantMessage if side == "agent" else UserMessage
    built = model(content="###TRANSFER###")
    assert type(records[0]) is model and records[0] == built
    assert records[0].model_fields_set == built.model_fields_set
    raw_mock_env.reset(seed=2, options={"task_id": "complete_task"})
    if side == "agent":
        play(raw_mock_env, SendMessage(content="hello"))
    play(raw_mock_env, Stop())
    assert raw_mock_env.conversation.trajectory[-1].content == "###STOP###"


def test_max_errors__cumulative_tool_errors_terminate_with_reward_zero():
    env = tau_env.make_env("mock", task_id="reopen_task", max_errors=3).unwrapped
    env.reset(seed=0)
    play(
        env,
        SendMessage(content="hi"),
        CallTool(name="nope"),
        SendMessage(content="hmm"),
        CallTool(name="nope"),
    )
    assert not any(env.terminations.values())
    play(env, CallTool(name="nope"))  # the third error, counted across both sides' turns
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.infos["agent"]["termination"] == "too_many_errors"
    assert env.rewards == {"agent": 0.0, "user": 0.0}


def test_max_steps__truncates_with_reward_zero():
    env = tau_env.make_env("mock", task_id="reopen_task", max_steps=4).unwrapped
    env.reset(seed=0)
    play(env, SendMessage(content="hi"), CallTool(name="get_users"))
    assert not any(env.truncations.values())
    play(env, SendMessage(content="anything else?"))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.infos["user"]["grade"]["reward"] == 0.0
    assert env.infos["user"]["termination"] == "max_steps"


def test_empty_message__ends_the_episode_as_that_sides_error(raw_mock_env):
    raw_mock_env.reset(seed=0)
    play(raw_mock_env, SendMessage(content="   "))
    assert raw_mock_env.infos["agent"]["termination"] == "user_error"
    assert "without text" in raw_mock_env.infos["agent"]["error"]


@pytest.mark.parametrize(
    "bad",
    [
        None,
        3.5,
        "text",
        {"kind": "fly"},
        {"kind": "tool_call"},
        {"kind": 9, "content": "", "tool": 0, "arguments": ""},
    ],
)
def test_invalid_actions__raise_and_change_nothing(raw_mock_env, bad):
    raw_mock_env.reset(seed=0)
    before = list(raw_mock_env.conversation.trajectory)
    with pytest.raises(InvalidAction):
        raw_mock_env.step(bad)
    assert raw_mock_env.conversation.trajectory == before
    assert raw_mock_env.agent_selection == "user"


def test_space_samples__decode_into_actions(raw_mock_env):
    raw_mock_env.reset(seed=0)
    play(raw_mock_env, {"kind": 0, "content": "hello", "tool": 0, "arguments": ""})
    play(raw_mock_env, {"kind": 1, "content": "", "tool": 1, "arguments": "{}"})  # get_users
    result = raw_mock_env.view("agent").inbox[-1]
    assert result.name == "get_users" and not result.error
    play(raw_mock_env, {"kind": 1, "content": "", "tool": 0, "arguments": "{oops"})
    assert raw_mock_env.view("agent").inbox[-1].error
    recorded = raw_mock_env.conversation.trajectory[-2].tool_calls[0]
    assert recorded.arguments == {"_raw_arguments": "{oops"}


def test_reset__task_option_picks_a_task_and_otherwise_the_generator_draws_one(raw_mock_env):
    # Issue 55: tasks were taken in order, so reset(seed=0) three times played three tasks.
    raw_mock_env.reset(seed=0)
    seen = {raw_mock_env.task.id}
    for _ in range(60):
        raw_mock_env.reset()  # the generator goes on from the seed
        seen.add(raw_mock_env.task.id)
    assert seen == {t.id for t in raw_mock_env.tasks}  # uniform draws reach every task
    raw_mock_env.reset(options={"task_id": "delete_refused"})
    assert raw_mock_env.task.id == "delete_refused"
    with pytest.raises(KeyError, match="no task 'nope'"):
        raw_mock_env.reset(options={"task_id": "nope"})


def test_episodes__do_not_leak_state_into_each_other(raw_mock_env):
    raw_mock_env.reset(seed=0, options={"task_id": "complete_task"})
    play(
        raw_mock_env,
        SendMessage(content="x"),
        COMPLETE_TASK_1,
    )
    raw_mock_env.reset(seed=0, options={"task_id": "complete_task"})
    assert raw_mock_env.conversation.world.agent_db.tasks["task_1"].status == "pending"


def test_history__every_reset_gets_the_same_split_in_lists_and_entries_of_its_own(raw_mock_env):
    seen = []
    for _ in range(2):
        raw_mock_env.reset(seed=0, options={"task_id": "complete_after_history"})
        views = [raw_mock_env.view(side) for side in ("agent", "user")]
        seen.append((views, raw_mock_env.observe("user")["messages"], raw_mock_env.agent_selection))
    (first, entries, turn), (second, again, turn_again) = seen
    assert turn == turn_again and entries == again
    assert all(
        a.inbox_entries[i] is not b.inbox_entries[i]
        for a, b in zip(first, second, strict=True)
        for i in range(len(a.inbox_entries))
    )
    for a, b in zip(first, second, strict=True):
        assert a.history == b.history and a.inbox == b.inbox and a.inbox_entries == b.inbox_entries
        assert a.history is not b.history and a.inbox is not b.inbox


def test_history__a_changed_history_is_split_again():
    from tau_env.env.conversation import Conversation
    from tau_env.messages import AssistantMessage, UserMessage

    world = (
        tau_env.make_env("mock")
        .unwrapped.domain.prepare(tau_env.load_domain("mock").tasks[0])
        .initial_world.fork(0)
    )
    history = [AssistantMessage(content="Hi"), UserMessage(content="Hello")]
    assert Conversation(world, history, max_steps=9, max_errors=9).turn == "agent"
    history.append(AssistantMessage(content="What now?"))
    assert Conversation(world, history, max_steps=9, max_errors=9).turn == "user"
    history[-1] = UserMessage(content="###STOP###")
    assert Conversation(world, history, max_steps=9, max_errors=9).done


class _Said(SendMessage):
    """A subclass of an action class: acted on as its base class."""


def test_act__instances_of_action_subclasses_act_as_their_base_class(raw_mock_env):
    raw_mock_env.reset(seed=0, options={"task_id": "complete_task"})
    raw_mock_env.step(_Said(content="Please close task_1."))
    assert raw_mock_env.agent_selection == "agent"
    assert raw_mock_env.conversation.trajectory[-1].content == "Please close task_1."


def test_inbox_entries__are_the_observation_entries_of_the_inbox_on_every_path():
    """Greeting, text, tool results (errors included), clipped texts and stops: each entry
    the hot paths build is `observation_entry` of its message."""
    from tau_env.env.conversation import observation_entry

    env = tau_env.make_env("mock", max_text_length=12).unwrapped
    env.reset(seed=0, options={"task_id": "complete_task"})
    inboxes = []

    def record():
        for side in ("agent", "user"):
            view = env.view(side)
            inboxes.append((list(view.inbox), list(view.inbox_entries)))

    record()  # the greeting, in the user's inbox
    for action in (
        SendMessage(content="Please close task_1, it is done."),  # clipped to 12 characters
        CallTool(name="get_users", arguments={}),
        CallTool(name="update_task_status", arguments={"task_id": "nope", "status": "completed"}),
        SendMessage(content="Anything else?"),
        Stop(),
    ):
        env.step(action)
        record()
    assert sum(len(messages) for messages, _ in inboxes) >= 6
    roles = {entry["role"] for _, entries in inboxes for entry in entries}
    assert len(roles) == 3  # user text, agent text and tool results were all seen
    for messages, entries in inboxes:
        assert entries == [observation_entry(m, 12) for m in messages]


def test_inbox_entries__one_per_message_and_dropped_with_the_inbox(raw_mock_env):
    """One entry per message of the inbox; acting empties them with the inbox."""
    raw_mock_env.reset(seed=0, options={"task_id": "complete_after_history"})
    side = raw_mock_env.agent_selection
    view = raw_mock_env.view(side)
    first = view.inbox_entries
    assert first and len(first) == len(view.inbox)
    raw_mock_env.step(SendMessage(content="Anything else I can do?"))
    assert view.inbox == [] and view.inbox_entries == []
