from __future__ import annotations

import pytest

import tau_env
from tau_env.chat import make_chat_env
from tau_env.chat.tokens import template_message
from tau_env.errors import TauEnvError
from tau_env.rollout import create_run, run
from tau_env.rollout.episode_chats import RunChats
from tau_env.rollout.modes import playable_in_mode
from tests.rollout.conftest import mock_config

MOCK = tau_env.make_env("mock").unwrapped
ALL_TASKS = tuple(t.id for t in MOCK.tasks)
SOLO_TASKS = tuple(t.id for t in MOCK.tasks if playable_in_mode(t, "no-user"))


def _through_last_turn(messages):
    last = max(i for i, m in enumerate(messages) if m["role"] == "assistant")
    return [template_message(m) for m in messages[: last + 1]]


@pytest.mark.parametrize(
    ("agent", "mode", "tasks"),
    [
        ("oracle-text", "default", ALL_TASKS),
        ("random", "default", ALL_TASKS),
        ("oracle", "no-user", SOLO_TASKS),
    ],
)
def test_chat__replayed_through_the_chat_view_is_the_same_chat_with_the_same_reward(
    store, agent, mode, tasks
):
    """The chat view, given the stored episode's seed and the exported model turns, shows the
    same system prompt, tools and messages, and grades the same reward."""
    config = mock_config(agent=agent, mode=mode, tasks=tasks, trials=2)
    create_run(store, config)
    run(store, config)
    chats = RunChats(store, "r")
    replayed = 0
    for episode in chats.episodes():
        chat = chats.chat(episode)
        if chat is None:
            continue
        view = make_chat_env("mock", mode=mode)
        prompt = view.reset(task_id=episode.task_id, seed=episode.seed).messages
        assert chat.messages[: chat.prompt_length] == [template_message(m) for m in prompt]
        for message in chat.messages[chat.prompt_length :]:
            if message["role"] == "assistant":
                assert not view.done
                view.step(message)
        assert view.done and view.reward == episode.reward
        assert chat.messages == _through_last_turn(view.messages)
        assert chat.tools == view.tools
        replayed += 1
    assert replayed >= len(tasks)  # (a random agent may end an episode before its first turn)


def test_chat__a_task_history_belongs_to_the_prompt(store):
    config = mock_config(agent="oracle-text", tasks=("complete_after_history",), trials=1)
    create_run(store, config)
    run(store, config)
    chats = RunChats(store, "r")
    chat = chats.chat(next(chats.episodes()))
    history = MOCK.domain.task("complete_after_history").initial_state.message_history
    assert len(history) == 5 and history[-1].role == "assistant"
    # system prompt, the history (greeting, request, call, result, reply), the customer
    assert chat.prompt_length == 1 + len(history) + 1
    assert [m["role"] for m in chat.messages[: chat.prompt_length]][-2:] == ["assistant", "user"]
    assert chat.messages[chat.prompt_length]["role"] == "assistant"
    assert chat.messages[3]["tool_calls"][0]["function"]["arguments"] == {
        "user_id": "user_1",
        "title": "Call the bank",
    }  # arguments as objects, as chat templates read them


def test_chat__an_episode_without_an_agent_turn_has_none(store):
    config = mock_config(
        agent="oracle-text", user="tests.rollout.agents:QuittingUser", tasks=("create_task",)
    )
    create_run(store, config)
    run(store, config)
    chats = RunChats(store, "r")
    episode = next(chats.episodes())
    assert [m["role"] for m in episode.trajectory] == ["assistant", "user"]
    assert chats.chat(episode) is None


def test_run_chats__a_run_whose_data_is_gone_fails_before_any_chat(store, tmp_path):
    config = mock_config(agent="oracle-text", tasks=("complete_task",), trials=1)
    create_run(store, config)
    run(store, config)
    gone = config.model_copy(update={"domain": "airline", "data_dir": str(tmp_path / "gone")})
    store.update_run_config("r", gone.model_dump(mode="json"))
    with pytest.raises(TauEnvError, match="data folder not found"):
        RunChats(store, "r")
