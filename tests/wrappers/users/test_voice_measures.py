"""Issue 41 item 4 over every task: the scripted user's openings vary, and it never reads its
instructions aloud (no run of 8 scenario words in any message; `parroting` says what counts).
Issue 54 item 3 on a sample: no message speaks like a program (a tool name, a literal, raw
output) or reads 12 words of the instructions plainly, against the oracles, the random agent
and the off-path agents, two seeds (``python benchmarks/user_voice.py --speech``: every task).

Every built-in task and every official one (the official data from TAU2_DATA_DIR or
../shared/tau2-data; without it those cases skip, and fail under CI=true).
``python benchmarks/user_voice.py --episodes`` prints the same figures.
"""

import pytest

import tau_env
from tau_env.baselines.off_path import off_path_factories
from tau_env.baselines.oracle import OracleAgent, PlainTextOracleAgent
from tau_env.baselines.random_agent import RandomAgent
from tau_env.episode_runner import run_episode
from tau_env.messages import AssistantMessage, ToolMessage, UserMessage
from tau_env.wrappers.users import ScriptedUser
from tau_env.wrappers.users.voice_measures import (
    Prober,
    copied_messages,
    opening_diversity,
    speech_faults,
)

SEEDS = range(5)
DOMAINS = ["airline", "retail", "telecom", "banking_knowledge", "mock"]
"""Every domain with tasks of its own (telecom-workflow plays telecom's tasks and users)."""


@pytest.fixture(params=["built-in", "official"])
def source(request):
    return None if request.param == "built-in" else request.getfixturevalue("data_dir")


def test_openings__of_the_telecom_train_tasks_vary_with_the_seed_and_persona():
    domain = tau_env.load_domain("telecom")
    tasks = domain.split("train")
    assert len(tasks) == 300
    figures = opening_diversity(tasks, domain, SEEDS)
    assert figures.distinct_over_seeds >= 20
    assert figures.max_share <= 0.10  # no opening said on more than 10% of tasks, any seed
    assert figures.varied_tasks == len(tasks)
    assert figures.copied == ()


@pytest.mark.parametrize("name", DOMAINS)
def test_openings__never_copy_and_change_with_the_seed_on_every_task(name, source):
    domain = tau_env.load_domain(name, source)
    figures = opening_diversity(domain.tasks, domain, SEEDS)
    assert figures.copied == ()
    assert figures.varied_tasks >= 0.95 * figures.tasks  # five seeds, five ways to open
    if figures.tasks >= 20:  # a share bound means little on the ten mock tasks
        assert figures.max_share <= 0.10, figures.max_share_per_seed


@pytest.mark.parametrize("name", DOMAINS)
def test_conversations__never_copy_the_scenario_on_every_task(name, source):
    env = tau_env.make_env(name, data_dir=source)
    domain = env.unwrapped.domain
    user = ScriptedUser.factory(domain)
    copied = []
    for task in domain.tasks:
        for agent in (Prober, PlainTextOracleAgent):
            result = run_episode(env, agent, user, task_id=task.id, seed=0)
            said = [m.content for m in result.trajectory if m.role == "user" and m.content]
            assert len(said) >= 2, task.id
            copied += [(task.id, found) for found in copied_messages(said, str(task.user_scenario))]
    assert copied == []


SPEECH_AGENTS = {
    "oracle": OracleAgent,
    "oracle-text": PlainTextOracleAgent,
    "random": RandomAgent,
    **off_path_factories(),
}


@pytest.mark.parametrize("name", DOMAINS)
def test_speech__no_program_speech_nor_instruction_runs_on_a_sample(name, source):
    env = tau_env.make_env(name, data_dir=source)
    domain = env.unwrapped.domain
    tools = set(domain.toolbox.tools("user").names) | set(domain.toolbox.tools("agent").names)
    user = ScriptedUser.factory(domain)
    tasks = domain.tasks[:: max(1, len(domain.tasks) // 12)]  # about 12 tasks a set
    played = [
        (
            run_episode(env, agent, user, task_id=task.id, seed=seed).trajectory,
            str(task.user_scenario),
        )
        for task in tasks
        for agent in SPEECH_AGENTS.values()
        for seed in (0, 1)
    ]
    figures = speech_faults(played, tools)
    assert figures.messages >= 2 * figures.episodes
    assert figures.faulty == 0, figures.examples


def test_speech_faults__count_each_fault_of_the_issue_examples():
    status = "Status Bar: 📵 No Signal | 📵 Data Disabled"
    scenario = (
        "Instructions:\n\tFor #W7209932, exchange T-Shirt {'color': 'blue', 'size': 'S', "
        "'material': 'polyester', 'style': 'v-neck'} to {'color': 'red', 'size': 'XXL', "
        "'material': 'cotton', 'style': 'crew neck'}; Use the gift card.\n"
    )
    trajectory = [
        AssistantMessage(content="Hi!"),
        ToolMessage(id="1", name="check_status_bar", content=status, requestor="user"),
        UserMessage(content=f"I did that. check_status_bar shows: {status}."),
        UserMessage(
            content="exchange T-Shirt {'color': 'blue', 'size': 'S', 'material': "
            "'polyester', 'style': 'v-neck'} to {'color': 'red', 'size': 'XXL', "
            "'material': 'cotton', 'style': 'crew neck'}"
        ),
        UserMessage(content="My phone shows no signal and says mobile data is off."),
    ]
    figures = speech_faults([(trajectory, scenario)], {"check_status_bar"})
    assert (figures.messages, figures.tool_names, figures.raw_output) == (3, 1, 1)
    assert (figures.literals, figures.copied) == (1, 1)
