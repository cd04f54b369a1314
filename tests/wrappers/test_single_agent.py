import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env

import tau_env
import tau_env.wrappers  # registers the gymnasium ids
from tau_env.actions import SendMessage
from tau_env.baselines.oracle import OracleAgent, PlainTextOracleAgent, SoloOracleAgent
from tau_env.domain import registered_domains
from tau_env.errors import InfrastructureError, ResetNeeded
from tau_env.llm import RetryPolicy
from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply
from tau_env.wrappers import NoUser, OraclePlan, SingleAgentEnv
from tau_env.wrappers.registration import GYM_DOMAINS, gym_id
from tau_env.wrappers.users import ScriptedUser
from tests.wrappers.test_llm_user import customer


def drive(env, agent_factory, task_id, seed=0):
    """Play one episode of the gym view with a participant that reads the raw views."""
    env.reset(seed=seed, options={"task_id": task_id})
    view = env.unwrapped
    agent = agent_factory(view.task)
    while True:
        action = agent.act(view.aec.view("agent"), view.aec.context("agent"))
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            return observation, reward, terminated, truncated, info


@pytest.mark.parametrize("modes", [(), (NoUser,), (OraclePlan,), (NoUser, OraclePlan)])
def test_check_env__passes_on_the_view_with_the_scripted_user(modes, mock_source):
    env = gymnasium.make("tau_env/Mock-v0", data_dir=mock_source, modes=list(modes))
    check_env(env.unwrapped, skip_render_check=True)


@pytest.mark.parametrize("agent", [OracleAgent, PlainTextOracleAgent])
def test_gym_view__oracle_against_the_scripted_user_reaches_one(agent):
    env = gymnasium.make("tau_env/Mock-v0")
    for task in env.unwrapped.aec.unwrapped.tasks:
        *_, reward, terminated, truncated, info = drive(env, agent, task.id)
        assert reward == 1.0 and terminated and not truncated, task.id
        assert info["grade"]["reward"] == 1.0 and "task_id" not in info  # issue 53
        assert env.unwrapped.task.id == task.id


def test_gym_view__first_observation_is_the_users_opening():
    env = gymnasium.make("tau_env/Mock-v0")
    observation, info = env.reset(seed=0, options={"task_id": "complete_task"})
    (opening,) = observation["messages"]
    domain = tau_env.load_domain("mock")
    # What the scripted user says first for this task and seed (its brief, in its own words).
    said = ScriptedUser(domain.task("complete_task"), domain, seed=0).voice.opening
    assert opening["content"] == said
    assert env.unwrapped.task.id == "complete_task" and "task_id" not in info


def test_gym_view__seeded_resets_pick_the_same_task():
    env = gymnasium.make("tau_env/Mock-v0")
    first = [(env.reset(seed=s), env.unwrapped.task.id)[1] for s in range(6)]
    again = [(env.reset(seed=s), env.unwrapped.task.id)[1] for s in range(6)]
    assert first == again and len(set(first)) > 1


def test_gym_view__takes_a_user_factory_and_modes():
    env = gymnasium.make("tau_env/Mock-v0", user=ScriptedUser.factory(patience=2))
    _observation, _ = env.reset(seed=0, options={"task_id": "create_task"})
    *_, terminated, _, _ = env.step(SendMessage(content="Let me see."))
    assert not terminated
    *_, terminated, _, info = env.step(SendMessage(content="Let me see."))
    assert terminated and info["termination"] == "user_stop"  # patience 2 ran out
    solo = gymnasium.make("tau_env/Mock-v0", modes=[NoUser], data_dir=None)
    *_, reward, terminated, _, info = drive(solo, SoloOracleAgent, "complete_task")
    assert reward == 1.0 and info["termination"] == "agent_stop"


def test_gym_view__plays_an_llm_user_inside_step_over_http():
    with FakeOpenAIServer(customer) as server:
        env = gymnasium.make(
            "tau_env/Mock-LLMUser-v0", llm=server.config(), task_id="complete_and_dismiss"
        )
        assert env.spec.nondeterministic
        observation, _ = env.reset(seed=0)
        assert observation["messages"][0]["content"].startswith("My quarterly report")
        *_, reward, terminated, _, _info = drive(env, PlainTextOracleAgent, "complete_and_dismiss")
        assert len(server.requests) >= 4
    assert reward == 1.0 and terminated
    user_calls = [
        m.tool_calls[0].name
        for m in env.unwrapped.aec.unwrapped.conversation.trajectory
        if m.role == "user" and m.tool_calls
    ]
    assert user_calls == ["dismiss_notification"]


def test_gym_view__a_user_model_error_ends_the_episode_as_the_users_error():
    # Was an empty reply; since issue 41 that is the provider's failure (next test).
    context = "maximum context length is 8192 tokens. context_length_exceeded"
    with FakeOpenAIServer([FakeReply.error(400, context)]) as server:
        env = gymnasium.make("tau_env/Mock-LLMUser-v0", llm=server.config(), task_id="create_task")
        _observation, info = env.reset(seed=0)
    assert env.unwrapped.aec.terminations["agent"]
    assert info["termination"] == "user_error" and "ContextWindowExceeded" in info["user_error"]
    with pytest.raises(ResetNeeded):
        env.step(SendMessage(content="hello"))


def test_gym_view__empty_llm_replies_are_an_infrastructure_failure_not_a_score():
    with FakeOpenAIServer([FakeReply.empty()] * 3) as server:
        env = gymnasium.make("tau_env/Mock-LLMUser-v0", llm=server.config(), task_id="create_task")
        with pytest.raises(InfrastructureError, match="replied empty"):
            env.reset(seed=0)


def test_gym_view__steps_after_the_end_need_a_reset():
    env = gymnasium.make("tau_env/Mock-v0")
    drive(env, OracleAgent, "complete_task")
    with pytest.raises(ResetNeeded):
        env.step(SendMessage(content="anyone?"))


def test_gym_view__needs_a_user_policy_when_there_is_a_user():
    with pytest.raises(ValueError, match="user"):
        SingleAgentEnv(tau_env.make_env("mock"))
    with pytest.raises(TypeError, match="user"):
        SingleAgentEnv(tau_env.make_env("mock"), user="scripted")
    with pytest.raises(ValueError, match="llm="):
        gymnasium.make("tau_env/Mock-LLMUser-v0")
    assert SingleAgentEnv(NoUser(tau_env.make_env("mock"))).has_user is False


def test_registration__one_scripted_and_one_llm_id_per_domain():
    for domain in GYM_DOMAINS:
        scripted, llm = gym_id(domain), gym_id(domain, llm_user=True)
        assert gymnasium.spec(scripted).nondeterministic is False
        assert gymnasium.spec(llm).nondeterministic is True
        assert gymnasium.spec(scripted).kwargs["domain"] == domain
    assert gym_id("mock") == "tau_env/Mock-v0"


@pytest.mark.parametrize("domain", ["telecom", "airline", "retail"])
def test_check_env__passes_on_every_domains_view_with_the_scripted_user(domain):
    assert domain in registered_domains()
    env = gymnasium.make(gym_id(domain))
    check_env(env.unwrapped, skip_render_check=True)
    assert env.reset(seed=0)[0]["messages"]


def test_registration__module_prefix_form_registers_on_demand():
    env = gymnasium.make("tau_env.wrappers:tau_env/Mock-v0")
    assert isinstance(env.unwrapped, SingleAgentEnv)


def test_retry_policy_is_honoured_through_the_gym_view():
    from tau_env.llm import LLMClient

    with FakeOpenAIServer([FakeReply.error(429), FakeReply.text("Hello ###STOP###")]) as server:
        client = LLMClient(server.config(), retry=RetryPolicy(initial_delay=0.01))
        env = gymnasium.make("tau_env/Mock-LLMUser-v0", llm=client, task_id="create_task")
        _, info = env.reset(seed=0)
        assert len(server.requests) == 2
    assert info["termination"] == "user_stop"


def test_gym_view__drives_the_bare_env_only_without_modes():
    plain = SingleAgentEnv(tau_env.make_env("mock"), ScriptedUser.factory())
    assert plain.driven is plain.aec.unwrapped  # past PettingZoo's order-enforcing wrapper
    moded = SingleAgentEnv(NoUser(tau_env.make_env("mock")))
    assert moded.driven is moded.aec  # a mode changes what a step does: driven as given


def test_gym_view__steps_reach_the_env_as_through_the_wrapper():
    fast = SingleAgentEnv(tau_env.make_env("mock"), ScriptedUser.factory())
    slow = SingleAgentEnv(tau_env.make_env("mock"), ScriptedUser.factory())
    slow.driven = slow.aec  # every access through the order-enforcing wrapper
    for view in (fast, slow):
        view.reset(seed=3)
    agent = PlainTextOracleAgent(fast.task)
    while True:
        action = agent.act(fast.aec.view("agent"), fast.aec.context("agent"))
        a, b = fast.step(action), slow.step(action)
        assert a[1:] == b[1:] and a[0]["messages"] == b[0]["messages"]
        if a[2] or a[3]:
            break
    assert a[1] == 1.0
    trajectory = fast.aec.unwrapped.conversation.trajectory
    assert trajectory == slow.aec.unwrapped.conversation.trajectory
