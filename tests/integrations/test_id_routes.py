"""No route hands a policy or a model its task's id, or any part of it (issue 53).

Each route plays a whole episode (the oracle's actions, the scripted user) of a built-in telecom
task (plain id; its description names the intent, faults and settings kept) and of an official
one (whose id spells out its faults), and everything the policy receives is searched for the id
and its parts (`tests.id_leaks`). The TRL routes are in ``tests/integrations/trl``, OpenEnv's in
``tests/integrations/openenv``, verifiers' in ``tests/environments/tau_env_verifiers``.
"""

from __future__ import annotations

import json

import tau_env
from tau_env.actions import CallTool, SendMessage
from tau_env.baselines.oracle import OracleAgent, PlainTextOracleAgent
from tau_env.chat import action_message, make_chat_env
from tau_env.participant import build_participant
from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply, FakeRequest
from tau_env.wrappers import SingleAgentEnv
from tau_env.wrappers.users import ScriptedUser
from tests.extras import require
from tests.id_leaks import agent_sees, leaked, legitimate_text, model_text


def test_aec__an_agent_participant_receives_nothing_of_the_id(id_case):
    data_dir, domain, task = id_case
    env = tau_env.make_env("telecom", data_dir=data_dir)
    env.reset(seed=0, options={"task_id": task.id})
    agent = OracleAgent(task)  # it reads the task from its factory; what it is handed is checked
    user = build_participant(ScriptedUser.factory(env.unwrapped.domain), task, 0)
    received = []
    for side in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        if side == "agent":
            received.append([observation, reward, info])
        if terminated or truncated:
            env.step(None)
            continue
        view, context = env.unwrapped.view(side), env.unwrapped.context(side)
        if side == "agent":
            received.append([view.history, view.inbox, vars(context)])
        env.step((agent if side == "agent" else user).act(view, context))
    assert env.unwrapped.grade.reward == 1.0  # the whole episode was played
    assert leaked(task, received, agent_sees(domain, task)) == []


def test_gymnasium__observations_and_infos_hold_no_part_of_the_id(id_case):
    data_dir, domain, task = id_case
    env = SingleAgentEnv(
        tau_env.make_env("telecom", data_dir=data_dir), ScriptedUser.factory(domain)
    )
    received = list(env.reset(seed=0, options={"task_id": task.id}))
    oracle, done = PlainTextOracleAgent(task), False
    while not done:
        observation, reward, terminated, truncated, info = env.step(oracle.act(None, None))
        received.append([observation, reward, info])
        done = terminated or truncated
    assert reward == 1.0
    assert leaked(task, received, agent_sees(domain, task)) == []


def test_chat_env__messages_tools_and_infos_hold_no_part_of_the_id(id_case):
    data_dir, domain, task = id_case
    chat = make_chat_env("telecom", data_dir=data_dir)
    turn = chat.reset(task_id=task.id, seed=0)
    received = [turn, chat.tools]
    oracle = PlainTextOracleAgent(task)
    while not turn.done:
        turn = chat.step(action_message(oracle.act(None, None)))
        received.append(turn)
    assert turn.reward == 1.0 and turn.grade is not None
    assert leaked(task, received, agent_sees(domain, task)) == []


def test_skyrl__prompt_observations_and_metadata_hold_no_part_of_the_id(id_case):
    require("skyrl_gym", "skyrl")
    from tau_env.integrations.skyrl import TauTextEnv

    data_dir, domain, task = id_case
    env = TauTextEnv({"domain": "telecom", "data_dir": data_dir}, {"task_id": task.id, "seed": 0})
    received = list(env.init([{"role": "user", "content": "ignored"}]))
    oracle, output = PlainTextOracleAgent(task), None
    while output is None or not output["done"]:
        output = env.step(model_text(oracle.act(None, None)))
        received.append(dict(output))
    assert output["reward"] == 1.0
    assert leaked(task, received, agent_sees(domain, task)) == []


def test_run_llm__agent_and_user_requests_hold_no_part_of_the_id(id_case, tmp_path, monkeypatch):
    """``tau-env run --agent llm --user llm``: every request body and header, either side."""
    from tau_env.cli.main import main
    from tau_env.wrappers.users.guidelines import guidelines_for

    data_dir, domain, task = id_case
    agent_tools = set(domain.toolbox.tools("agent").names)
    plan = []
    oracle = PlainTextOracleAgent(task)
    while len(plan) < 12:  # the oracle's moves, whatever the (fake) customer answers
        action = oracle.act(None, None)
        if not isinstance(action, CallTool | SendMessage):
            break
        plan.append(action)

    def model(request: FakeRequest) -> FakeReply:
        if agent_tools <= set(request.tool_names):  # the agent's request
            turn = sum(m["role"] == "assistant" for m in request.messages) - 1  # greeting
            if turn >= len(plan):
                return FakeReply.text("###STOP###")
            if isinstance(plan[turn], CallTool):
                return FakeReply.tool_call(plan[turn].name, json.dumps(plan[turn].arguments))
            return FakeReply.text(plan[turn].content)
        return FakeReply.text("My phone is not working, can you help me?")

    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake")
    with FakeOpenAIServer(model) as server:
        models = ["--agent-model", server.model(), "--agent-api-base", server.base_url]
        models += ["--user-model", server.model(), "--user-api-base", server.base_url]
        argv = ["run", "--domain", "telecom", "--agent", "llm", "--user", "llm", *models]
        argv += ["--tasks", task.id, "--store", str(tmp_path / "runs.sqlite"), "--no-progress"]
        if data_dir is not None:
            argv += ["--data-dir", str(data_dir)]
        assert main(argv) == 0
        requests = server.requests
    agent = [r for r in requests if agent_tools <= set(r.tool_names)]
    users = [r for r in requests if r not in agent]
    assert len(agent) > len(plan) // 2 and users
    assert leaked(task, [[r.body, r.headers] for r in agent], agent_sees(domain, task)) == []
    # The user legitimately reads its scenario, its guidelines and its own tools.
    user_sees = legitimate_text(
        str(task.user_scenario),
        guidelines_for(domain).text(True),
        domain.toolbox.tools("user").openai_schemas(),
    )
    assert leaked(task, [[r.body, r.headers] for r in users], user_sees) == []
