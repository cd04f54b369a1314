"""The lean OpenAI route and the litellm route play the same episodes the same way.

Both runs play the same mock tasks with an LLM agent and an LLM user against the fake server,
one through each route (and once more each with streamed replies). The scripted models answer
from what each request says (the seed, the messages), never from arrival order, so whatever
the interleaving, identical requests get identical replies: any difference in the stored
episodes is a difference between the routes.
"""

import pytest

from tau_env.rollout import ParticipantSpec, RunConfig, create_run, run
from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply, FakeToolCall

TASKS = ("complete_task", "create_task", "reopen_task")


def model(request):
    """Agent: one status update, then a closing line; user: asks, then stops."""
    seed = request.body["seed"]
    turns = len(request.messages)
    tokens = {"prompt_tokens": 10 * turns + 3, "completion_tokens": turns % 7 + 1}
    if "update_task_status" in request.tool_names:  # the agent
        if request.last_message.get("role") == "tool":
            return FakeReply(content="Done: task_1 is completed.", **tokens)
        arguments = '{"task_id": "task_1", "status": "completed"}'
        call = FakeToolCall("update_task_status", arguments, f"call_{seed}_{turns}")
        return FakeReply(tool_calls=(call,), **tokens)
    spoken = sum(1 for m in request.messages if m["role"] == "assistant")
    text = "Please mark task_1 as completed." if spoken == 0 else "Thanks! ###STOP###"
    return FakeReply(content=text, **tokens)


def _play(store, server, route, stream):
    spec = ParticipantSpec(
        kind="llm",
        model=server.model(),
        api_base=server.base_url,
        temperature=0.2,
        llm_args={"route": route, "stream": stream},
    )
    config = RunConfig(
        run_id=f"{route}-{stream}", domain="mock", task_ids=TASKS, trials=2, agent=spec, user=spec
    )
    create_run(store, config)
    summary = run(store, config)
    assert (summary.finished, summary.failed) == (6, 0)
    return {(e.task_id, e.trial): e for e in store.episodes(config.run_id)}


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
def test_lean_and_litellm_routes__store_identical_episodes(store, stream):
    with FakeOpenAIServer(model) as server:
        lean = _play(store, server, "lean", stream)
        lean_requests = server.requests
        litellm = _play(store, server, "litellm", stream)
        litellm_requests = server.requests[len(lean_requests) :]
    assert lean.keys() == litellm.keys()
    for unit, episode in lean.items():
        other = litellm[unit]
        assert episode.trajectory == other.trajectory
        assert (episode.reward, episode.termination) == (other.reward, other.termination)
        for side in ("agent", "user"):
            mine, theirs = getattr(episode, side), getattr(other, side)
            assert mine.usage == theirs.usage and mine.usage.calls > 0
            assert (mine.route, theirs.route) == ("lean", "litellm")  # recorded per episode
    assert sorted(e.reward for e in lean.values()) == [0.0, 0.0, 0.0, 0.0, 1.0, 1.0]

    def sent(requests):  # what reached the provider, by (seed, turn, side)
        keys = ("tools", "tool_choice", "seed", "temperature", "stream")
        return {
            (r.body["seed"], len(r.messages), bool(r.tool_names)): {
                # litellm leaves out a null "content" beside tool calls; the lean route sends
                # the messages as given: the same request for the API
                "messages": [{k: v for k, v in m.items() if v is not None} for m in r.messages],
                **{k: r.body.get(k) for k in keys},
            }
            for r in requests
        }

    assert sent(lean_requests) == sent(litellm_requests)
